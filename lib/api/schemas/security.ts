import { z } from "zod";
import {
  CHECK_STATUSES,
  HONEYPOT_REASONS,
  HONEYPOT_SELL_TAX_PCT,
  HONEYPOT_VERDICTS,
  LOCK_RELEASES,
  OWNER_STATES,
} from "@/lib/domain/security";
import { timestampSchema } from "./common";

const pct = (description: string) => z.number().min(0).max(100).optional().meta({ description });
const flag = (description: string) => z.boolean().optional().meta({ description });

/** What every check says of itself: whether it ran, why not, and when. */
const checkFields = {
  status: z.enum(CHECK_STATUSES).meta({
    description: "ok: the check ran and its fields hold; unknown: it could not run (see reason), which is never safe",
  }),
  reason: z.string().optional().meta({ description: "Why the check is unknown, in words" }),
  checked_at: timestampSchema
    .optional()
    .meta({ description: "Time of the block the check ran at; absent before the first check" }),
  block: z.number().int().optional().meta({ description: "Block the check ran at; absent before the first check" }),
};

const trade = z
  .object({
    ...checkFields,
    pool: z.string().optional().meta({ description: "The pool the small buy and sell were simulated in" }),
    buy_tax_pct: pct("Share of the tokens a small buy should get that does not arrive, in percent"),
    sell_tax_pct: pct(
      "Share of the quote a sell of those tokens should return that does not arrive, in percent; " +
        "absent when the sell reverts",
    ),
    honeypot: z.enum(HONEYPOT_VERDICTS).meta({
      description:
        `yes when the sell reverts or returns at most ${100 - HONEYPOT_SELL_TAX_PCT}% of what an untaxed token ` +
        "would; unknown when it could not be tried",
    }),
    honeypot_reason: z.enum(HONEYPOT_REASONS).optional().meta({ description: "Why it is a honeypot" }),
  })
  .meta({ id: "TradeCheck", description: "A small buy and a sell of it, simulated by eth_call in the main pool" });

const owner = z
  .object({
    ...checkFields,
    state: z
      .enum(OWNER_STATES)
      .optional()
      .meta({
        description:
          "active: owner() names an address; renounced: the zero or dead address; " +
          "none: the token has no owner() or getOwner()",
      }),
    address: z.string().optional().meta({ description: "The owner's address" }),
  })
  .meta({ id: "OwnerCheck", description: "Who controls the contract" });

const code = z
  .object({
    ...checkFields,
    can_mint: flag("The code (or its implementation) has a mint function"),
    can_pause: flag("It has a pause or trading switch"),
    can_blacklist: flag("It can block addresses from trading"),
    can_change_fees: flag("It has a function that sets its fees or taxes"),
    proxy: flag("The token is a proxy (EIP-1967 implementation or beacon slot, or an EIP-1167 clone)"),
    implementation: z.string().optional().meta({ description: "A proxy's implementation" }),
  })
  .meta({ id: "CodeCheck", description: "What the contract's code can do, from the function selectors it dispatches" });

const lock = z
  .object({
    locker: z.string().meta({ description: "The locker contract" }),
    name: z.string().meta({ description: "The locker's name" }),
    share_pct: z.number().min(0).max(100).meta({ description: "Share of the pool's liquidity it holds, in percent" }),
    release: z.enum(LOCK_RELEASES).meta({
      description: "never: locked for good; by_owner: its owner may take it out at any time; unknown: terms not read",
    }),
  })
  .meta({ id: "LiquidityLock" });

const liquidity = z
  .object({
    ...checkFields,
    pool: z.string().optional().meta({ description: "The pool whose liquidity was read (the main pool)" }),
    burnt_pct: pct("Share of the pool's liquidity burnt (LP shares at the zero or dead address)"),
    locked_pct: pct("Share held by known lockers"),
    free_pct: pct("Share held by anyone else, who can pull it"),
    locks: z.array(lock).optional().meta({ description: "The lockers holding it, with their terms" }),
  })
  .meta({ id: "LiquidityCheck", description: "Who holds the main pool's liquidity" });

export const tokenSecurity = z
  .object({
    token_address: z.string().meta({ description: "Token contract address, lowercase" }),
    honeypot: z.enum(HONEYPOT_VERDICTS).meta({ description: "The trade check's verdict: can it be sold?" }),
    trade,
    owner,
    code,
    liquidity,
  })
  .meta({
    id: "TokenSecurity",
    description:
      "The token's security checks, run by the indexer at a block (each check says when, and whether it could run)",
  });
