import { z } from "zod";
import {
  CLASSIFICATIONS,
  CREATOR_SALES,
  CREATOR_UNKNOWN_REASONS,
  NET_ACTIVITY,
  RISK_FLAGS,
  TOKEN_ORIGINS,
  TOKEN_SORT_ORDERS,
  TOKEN_SORTS,
} from "@/lib/domain/vocab";
import { NO_EVIDENCE_REPUTATION } from "@/lib/scoring/no-evidence";
import { addressSchema, cursorListEnvelope, cursorParam, paginationQuery, timestampSchema } from "./common";
import { tokenSecurity } from "./security";
import { refineTokenFilter, tokenFilterQueryShape } from "./token-filter";

/** The reputation score of a wallet without evidence, in words. */
const NO_EVIDENCE = `${NO_EVIDENCE_REPUTATION} (no evidence)`;

/** Most tokens one batch lookup (GET /v1/tokens?addresses=) returns. */
export const MAX_BATCH_ADDRESSES = 50;

export const tokenListQuery = z
  .object({
    addresses: z
      .string()
      .transform((s) => s.split(","))
      .pipe(
        z.array(addressSchema).min(1).max(MAX_BATCH_ADDRESSES, `must list at most ${MAX_BATCH_ADDRESSES} addresses`),
      )
      .transform((list) => [...new Set(list)])
      .optional()
      .meta({
        description:
          `Batch lookup: up to ${MAX_BATCH_ADDRESSES} token addresses, comma-separated. ` +
          "Returns those tokens in the order given " +
          "(duplicates once, unindexed ones left out; total = how many were found) in one request. " +
          "Takes no other parameter.",
      }),
    ...tokenFilterQueryShape,
    sort: z
      .enum(TOKEN_SORTS)
      .default("trending")
      .meta({
        description: `Sort order: ${TOKEN_SORTS.map((s) => `${s} (${TOKEN_SORT_ORDERS[s].description})`).join("; ")}`,
      }),
    ...paginationQuery,
    cursor: cursorParam,
  })
  .superRefine(refineTokenFilter);

const priceChange = (window: string) =>
  z
    .number()
    .nullable()
    .meta({
      description:
        `Change of price_usd over the ${window} up to the indexed head, in percent (against the price ` +
        "after the token's last swap or liquidity change before the window, or its first price inside it); null " +
        "while the token has no price, or had none in the window",
    });

export const tokenCreator = z
  .object({
    address: z
      .string()
      .nullable()
      .meta({
        description:
          "The wallet that launched the token, lowercase, as its launchpad's launch event names it; null when it is " +
          "unknown (unknown_reason says why): never guessed",
      }),
    via: z
      .object({
        kind: z.enum(TOKEN_ORIGINS).meta({
          description:
            "launchpad: its launchpad's launch event announced the token; factory: it was found as the " +
            "non-quote side of a pool a DEX factory created (the token existed before)",
        }),
        name: z.string().meta({ description: "Configured name of the launchpad or factory (as launchpad)" }),
      })
      .meta({ description: "What the token came through" }),
    unknown_reason: z
      .enum(CREATOR_UNKNOWN_REASONS)
      .nullable()
      .meta({
        description:
          "Why address is null: found_through_pool (the token was found through a later pool, which does not " +
          "say who deployed it) or launch_event_names_none (its launchpad's event carries no creator); null when " +
          "address is known",
      }),
  })
  .meta({ id: "TokenCreator" });

export const token = z
  .object({
    address: z.string().meta({ description: "Token contract address, lowercase" }),
    name: z.string().meta({ description: "Token name (cleaned of control and bidirectional-override characters)" }),
    symbol: z.string().meta({ description: "Token symbol (cleaned likewise)" }),
    market_cap_usd: z.number().meta({
      description:
        "Market cap in USD: price_usd times the circulating supply (the total supply less the balances of burn " +
        "addresses), 0 while price_usd is 0",
    }),
    volume_24h_usd: z.number().meta({ description: "USD swapped in the 24 h up to the indexed head" }),
    liquidity_usd: z.number().meta({ description: "Liquidity in USD over the token's quote pools" }),
    holder_count: z
      .number()
      .int()
      .meta({ description: "Number of real holders (not pools, burn addresses or the token itself)" }),
    age_hours: z.number().meta({ description: "Hours since the token's creation block, at the request's time" }),
    risk_score: z
      .number()
      .min(0)
      .max(100)
      .meta({ description: "Composite risk score, 0 to 100 (GET /scores/token/{address} has the breakdown)" }),
    risk_flags: z.array(z.enum(RISK_FLAGS)).meta({ description: "Risk flags raised for the token (may be empty)" }),
    ai_summary: z.string().meta({ description: "Generated text summary of the token" }),
    launchpad: z.string().meta({
      description:
        "Configured name of the launchpad the token came from (of the DEX factory whose pool it was found through, " +
        "for a token no launchpad announced: creator.via says which)",
    }),
    creator: tokenCreator,
    price_usd: z.number().meta({
      description:
        "USD price in the token's deepest quote pool (WETH or a stablecoin) holding the chain's minimum liquidity; " +
        "0 without such a pool",
    }),
    price_change_5m_pct: priceChange("5 minutes"),
    price_change_1h_pct: priceChange("hour"),
    price_change_24h_pct: priceChange("24 hours"),
    volume_1h_usd: z.number().meta({ description: "USD swapped in the hour up to the indexed head" }),
    txns_24h: z
      .object({
        buys: z.number().int().meta({ description: "Buys" }),
        sells: z.number().int().meta({ description: "Sells" }),
      })
      .meta({ description: "Swaps in the 24 hours up to the indexed head, by the trader's side" }),
    makers_24h: z.number().int().meta({ description: "Distinct wallets that swapped the token in those 24 hours" }),
    fdv_usd: z
      .number()
      .meta({ description: "Fully diluted value: price_usd times the total supply, 0 while price_usd is 0" }),
  })
  .meta({ id: "Token" });

export const holder = z
  .object({
    address: z.string().meta({ description: "Token contract address, lowercase" }),
    holding_pct: z.number().meta({ description: "Share of the total supply held, in percent" }),
    classification: z.enum(CLASSIFICATIONS).meta({
      description: "Behavioural class: smart_money, sniper, bot, insider, whale, wash_trader, fresh or retail",
    }),
    reputation_score: z.number().meta({
      description: `Wallet reputation score, 0 to 100; ${NO_EVIDENCE} for a wallet not scored yet`,
    }),
    net_activity: z.enum(NET_ACTIVITY).meta({
      description:
        "Recent net direction of the holder's swaps over the 24 h up to the worker's last refresh of the token (the " +
        "indexed head; for a token not traded since, its full refresh, every 30 s): accumulating, distributing, " +
        "holding or exited",
    }),
    tags: z.array(z.string()).meta({
      description:
        "contract (the holder has code); cluster:<funder> (one of a managed funding cluster, the one owner the " +
        "scores count: its funder paid at most 50 wallets, and 2 or more of them, at least half, hold the token)",
    }),
  })
  .meta({ id: "Holder" });

export const creatorHolding = z
  .object({
    quantity: z.number().meta({ description: "Tokens the creator holds now, in whole units" }),
    holding_pct: z.number().meta({ description: "Share of the total supply it holds, in percent" }),
    value_usd: z.number().meta({ description: "quantity at the token's price_usd" }),
    sold: z.enum(CREATOR_SALES).meta({
      description:
        "From its sells (swaps of the token by the creator) and its balance: sold_all (it sold and holds none), " +
        "sold_some (it sold and still holds some), bought_more (it never sold and bought on the market), " +
        "not_sold (it neither sold nor bought; tokens it transferred away are not sales)",
    }),
    buy_count: z.number().int().meta({ description: "The creator's buys of the token" }),
    sell_count: z.number().int().meta({ description: "The creator's sells of the token" }),
    sold_usd: z.number().meta({ description: "USD its sells received" }),
  })
  .meta({ id: "CreatorHolding" });

export const tokenProfile = token
  .extend({
    top_holders: z.array(holder).meta({ description: "The 10 largest real holders" }),
    created_at: timestampSchema,
    creator_holding: creatorHolding
      .nullable()
      .meta({ description: "What the creator holds now and whether it sold; null when the creator is unknown" }),
    security: tokenSecurity,
  })
  .meta({ id: "TokenProfile" });

export const tokenList = cursorListEnvelope(token, "TokenList");
