import { z } from "zod";
import { OHLCV_INTERVALS } from "@/lib/domain/vocab";
import {
  cursorListEnvelope,
  cursorParam,
  intParam,
  listEnvelope,
  paginationQuery,
  timeParam,
  timestampSchema,
} from "./common";
import { holder } from "./tokens";

/** A token's market beyond its profile: candles, every holder, every pool. */

export const OHLCV_MAX_LIMIT = 1000;

export const ohlcvQuery = z
  .object({
    interval: z
      .enum(Object.keys(OHLCV_INTERVALS) as [keyof typeof OHLCV_INTERVALS])
      .default("1h")
      .meta({ description: "Candle length; candles start at multiples of it since the Unix epoch (UTC)" }),
    from: timeParam("Candles starting at or after this time; default: `limit` candles back from `to`").optional(),
    to: timeParam("Candles starting at or before this time; default and at most: the indexed head's time").optional(),
    page: paginationQuery.page,
    limit: intParam(1, OHLCV_MAX_LIMIT, `Candles per page, 1 to ${OHLCV_MAX_LIMIT}`).default(200),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: "custom", path: ["from"], message: "must not be after to" });
  });

export const candle = z
  .object({
    time: timestampSchema.meta({ description: "Start of the interval" }),
    open: z.number().meta({
      description:
        "The previous candle's close: the token's USD price (price_usd's rule) when the interval began. " +
        "The token's first candle " +
        "opens at the price after its first swap or liquidity change",
    }),
    high: z.number().meta({
      description: "Highest of the open and of the prices after each swap or liquidity change in the interval",
    }),
    low: z.number().meta({ description: "Lowest of those; 0 once no pool held the minimum liquidity" }),
    close: z.number().meta({
      description:
        "The price after the interval's last swap or liquidity change (carried forward when it had none); 0 when no " +
        "pool then held the minimum liquidity",
    }),
    volume_usd: z.number().meta({ description: "USD traded in the interval's swaps" }),
    trades: z.number().int().meta({ description: "Swaps in the interval; 0 for an interval carried forward" }),
  })
  .meta({ id: "Candle" });

export const ohlcvList = listEnvelope(candle, "CandleList");

export const holderListQuery = z.object({ ...paginationQuery, cursor: cursorParam });

export const holderItem = holder
  .extend({
    quantity: z.number().meta({ description: "Tokens held, in whole units (decimals applied)" }),
    value_usd: z.number().meta({ description: "quantity at the token's price_usd" }),
  })
  .meta({ id: "HolderItem" });

export const holderList = cursorListEnvelope(holderItem, "HolderList");

export const poolListQuery = z.object(paginationQuery);

export const pool = z
  .object({
    address: z.string().meta({ description: "Pool (pair) contract address" }),
    protocol: z.enum(["uniswap_v2", "uniswap_v3"]).meta({ description: "The pool's protocol" }),
    dex: z.string().meta({ description: "Configured name of the factory that created the pool" }),
    fee_pct: z.number().meta({
      description:
        "The pool's swap fee tier, in percent of each swap (a V2 pair's 0.3; a V3 pool's own: 0.01, 0.05, 0.3 or 1)",
    }),
    pair_token_address: z.string().meta({ description: "The other token of the pool" }),
    pair_token_symbol: z
      .string()
      .nullable()
      .meta({
        description:
          "Its symbol: an indexed token's, or a quote token's (WETH, stablecoins) from the chain profile; null for " +
          "any other token",
      }),
    liquidity_usd: z.number().meta({
      description:
        "USD value of the pool: both reserves when both sides are quote tokens, else twice the quote side; 0 " +
        "without a quote token",
    }),
    price_usd: z
      .number()
      .nullable()
      .meta({
        description:
          "The token's price in this pool, in USD: the pool's current marginal price (a V2 pair's reserve ratio, " +
          "a V3 pool's sqrtPriceX96, with both tokens' decimals) times the quote token's USD; " +
          "null without a quote token",
      }),
    volume_24h_usd: z.number().meta({ description: "USD swapped in this pool in the 24 h up to the indexed head" }),
    swaps_24h: z.number().int().meta({ description: "Swaps in this pool in the same 24 h" }),
    is_price_source: z.boolean().meta({
      description: "The pool the token's price_usd comes from (its deepest quote pool holding the minimum liquidity)",
    }),
  })
  .meta({ id: "Pool" });

export const poolList = listEnvelope(pool, "PoolList");
