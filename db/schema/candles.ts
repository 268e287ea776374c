import { integer, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { address, ts, usd } from "./columns";

/**
 * USD candles of a token from its priced swaps (a USD amount and a token amount; a swap's price is
 * its USD over its token amount), per interval of OHLCV_INTERVALS and bucket (UTC-aligned: a
 * multiple of the interval since the Unix epoch). Kept by worker/derive/candles.ts as ranges
 * commit, so GET /v1/tokens/{address}/ohlcv reads candles instead of every swap. Only buckets with
 * swaps have a row; the API carries closes forward over the others.
 */
export const ohlcvCandles = pgTable(
  "ohlcv_candles",
  {
    tokenAddress: address().notNull(),
    /** The interval's name in OHLCV_INTERVALS (1m, 5m, 15m, 1h, 4h, 1d). */
    interval: text().notNull(),
    bucketStart: ts().notNull(),
    /** Price of the bucket's first swap (by event id). */
    open: usd().notNull(),
    high: usd().notNull(),
    low: usd().notNull(),
    /** Price of the bucket's last swap (by event id). */
    close: usd().notNull(),
    /** Exact: a bucket merged range by range sums to what one sum of its swaps gives. */
    volumeUsd: numeric().notNull(),
    trades: integer().notNull(),
  },
  // The key serves the API's reads: a token's candles of one interval by time.
  (t) => [primaryKey({ columns: [t.tokenAddress, t.interval, t.bucketStart] })],
);
