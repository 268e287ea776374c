import { z } from "zod";
import { CLASSIFICATIONS, NET_ACTIVITY, RISK_FLAGS, TOKEN_SORT_ORDERS, TOKEN_SORTS } from "@/lib/domain/vocab";
import { addressSchema, listEnvelope, paginationQuery, timestampSchema } from "./common";
import { refineTokenFilter, tokenFilterQueryShape } from "./token-filter";

export const tokenListQuery = z
  .object({
    ...tokenFilterQueryShape,
    sort: z
      .enum(TOKEN_SORTS)
      .default("trending")
      .meta({ description: `Sort order: ${TOKEN_SORTS.map((s) => `${s} (${TOKEN_SORT_ORDERS[s].description})`).join("; ")}` }),
    ...paginationQuery,
  })
  .superRefine(refineTokenFilter);

export const tokenAddressParam = z.object({ address: addressSchema });

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
