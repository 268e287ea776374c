import { z } from "zod";
import { CLASSIFICATIONS, NET_ACTIVITY, RISK_FLAGS, TOKEN_SORT_ORDERS, TOKEN_SORTS } from "@/lib/domain/vocab";
import { addressSchema, listEnvelope, paginationQuery, timestampSchema } from "./common";
import { refineTokenFilter, tokenFilterQueryShape } from "./token-filter";

/** Most tokens one batch lookup (GET /v1/tokens?addresses=) returns. */
export const MAX_BATCH_ADDRESSES = 50;

export const tokenListQuery = z
  .object({
    addresses: z
      .string()
      .transform((s) => s.split(","))
      .pipe(z.array(addressSchema).min(1).max(MAX_BATCH_ADDRESSES, `must list at most ${MAX_BATCH_ADDRESSES} addresses`))
      .transform((list) => [...new Set(list)])
      .optional()
      .meta({
        description:
          `Batch lookup: up to ${MAX_BATCH_ADDRESSES} token addresses, comma-separated. Returns those tokens in the order given ` +
          "(duplicates once, unindexed ones left out; total = how many were found) in one request. Takes no other parameter.",
      }),
    ...tokenFilterQueryShape,
    sort: z
      .enum(TOKEN_SORTS)
      .default("trending")
      .meta({ description: `Sort order: ${TOKEN_SORTS.map((s) => `${s} (${TOKEN_SORT_ORDERS[s].description})`).join("; ")}` }),
    ...paginationQuery,
  })
  .superRefine(refineTokenFilter);

export const tokenAddressParam = z.object({ address: addressSchema });

const priceChange = (window: string) =>
  z
    .number()
    .nullable()
    .meta({
      description: `Change of the swap price over the ${window} up to the indexed head, in percent (the last swap against the last one before the window, or the first one for a younger token); null for a token that never traded`,
    });

export const token = z
  .object({
    address: z.string(),
    name: z.string(),
    symbol: z.string(),
    market_cap_usd: z.number(),
    volume_24h_usd: z.number(),
    liquidity_usd: z.number(),
    holder_count: z.number().int(),
    age_hours: z.number(),
    risk_score: z.number().min(0).max(100),
    risk_flags: z.array(z.enum(RISK_FLAGS)),
    ai_summary: z.string(),
    launchpad: z.string(),
    price_usd: z.number().meta({
      description: "USD price in the token's deepest quote pool (WETH or a stablecoin) holding the chain's minimum liquidity; 0 without such a pool",
    }),
    price_change_5m_pct: priceChange("5 minutes"),
    price_change_1h_pct: priceChange("hour"),
    price_change_24h_pct: priceChange("24 hours"),
    volume_1h_usd: z.number().meta({ description: "USD swapped in the hour up to the indexed head" }),
    txns_24h: z
      .object({ buys: z.number().int(), sells: z.number().int() })
      .meta({ description: "Swaps in the 24 hours up to the indexed head, by the trader's side" }),
    makers_24h: z.number().int().meta({ description: "Distinct wallets that swapped the token in those 24 hours" }),
    fdv_usd: z.number().meta({ description: "Fully diluted value: the price of market_cap_usd times the total supply" }),
  })
  .meta({ id: "Token" });

export const holder = z
  .object({
    address: z.string(),
    holding_pct: z.number(),
    classification: z.enum(CLASSIFICATIONS),
    reputation_score: z.number(),
    net_activity: z.enum(NET_ACTIVITY),
    tags: z.array(z.string()).meta({ description: "contract, cluster:<id>" }),
  })
  .meta({ id: "Holder" });

export const tokenProfile = token.extend({ top_holders: z.array(holder), created_at: timestampSchema }).meta({ id: "TokenProfile" });

export const tokenList = listEnvelope(token, "TokenList");
