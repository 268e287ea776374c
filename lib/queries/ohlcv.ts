import { sql } from "drizzle-orm";
import type { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import type { Db } from "@/db/client";
import { ohlcvCandles, tokens } from "@/db/schema";
import type { candle, ohlcvList } from "@/lib/api/schemas/market";
import { OHLCV_INTERVALS, type OhlcvInterval } from "@/lib/domain/vocab";
import { indexedTimeSql } from "./clock";
import { round } from "./format";
import { runRead } from "./read";

export type OhlcvQuery = { interval: OhlcvInterval; from?: Date; to?: Date; page: number; limit: number };

const secondsAt = (s: number) => new Date(s * 1000);
const c = aliasColumns(ohlcvCandles, "c");
const t = aliasColumns(tokens, "t");

type Bucket = {
  bucket: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  trades: number;
};

type CandlePage = {
  head: number | null;
  first_bucket: number | null;
  first: number;
  last: number;
  page_first: number;
  page_last: number;
  previous: number | null;
  buckets: Bucket[] | null;
};

/**
 * USD candles of a token's price after each of its swaps and liquidity changes (the pricing
 * rule's price_usd at that event: 0 while no pool held the minimum liquidity), oldest first: the
 * candles that start within [from, to], `to` at most the indexed head (its default), `from` by
 * default `limit` candles back from `to`. There are no candles before the token's first pool
 * event; after it, an interval without one carries the previous close forward (open = high = low
 * = close, volume 0), so the series has no gaps and `total` is the number of intervals in the
 * range. Every candle opens at the previous one's close (the token's first, at its first price),
 * as traders' charts draw a continuous market. Null when the token is not indexed.
 * The buckets with events are the worker's (ohlcv_candles, worker/derive/candles.ts): a page reads
 * at most `limit` rows of the key, whatever the token's trading. One statement works out the
 * range from the head and the first candle and reads the page's candles with the close before
 * them, so a page costs one round trip.
 */
export function tokenOhlcvRead(token: string, q: OhlcvQuery) {
  const step = OHLCV_INTERVALS[q.interval];
  const epoch = (d: Date | undefined) => (d ? d.getTime() / 1000 : null);
  // The request's values enter once, as columns of `known`; the range is worked out from them.
  const first = sql`with known as materialized (
          select ${step}::float8 as step, ${q.limit}::int as page_size, ${q.page}::int as page_no,
                 ${epoch(q.from)}::float8 as from_at, ${epoch(q.to)}::float8 as to_at,
                 extract(epoch from ${indexedTimeSql})::float8 as head,
                 (select extract(epoch from ${c.bucketStart})::float8 from ${ohlcvCandles} c
                   where ${c.tokenAddress} = ${t.address}
                     and ${c.interval} = ${q.interval} order by ${c.bucketStart} limit 1) as first_bucket
            from ${tokens} t where ${t.address} = ${token}
        ), bounds as (
          -- The last interval starts at or before to (at most the head); the first is from's, or page_size back
          -- from the last.
          select *, greatest(coalesce(ceil(from_at / step) * step, last - (page_size - 1) * step),
                 first_bucket) as first
            from (select *, floor(least(coalesce(to_at, head), head) / step) * step as last from known) k
        ), page as materialized (
          select *, least(last, page_first + (page_size - 1) * step) as page_last
            from (select *, first + (page_no - 1) * page_size * step as page_first from bounds) b
        )
        select head, first_bucket, first, last, page_first, page_last,
               (select ${c.close} from ${ohlcvCandles} c
                 where ${c.tokenAddress} = ${token}
                   and ${c.interval} = ${q.interval} and ${c.bucketStart} < to_timestamp(page_first)
                 order by ${c.bucketStart} desc limit 1) as previous,
               (select json_agg(b) from (
                  select extract(epoch from ${c.bucketStart})::float8 as bucket, ${c.open}, ${c.high}, ${c.low},
                         ${c.close}, ${c.volumeUsd}::float8 as volume, ${c.trades}
                    from ${ohlcvCandles} c
                   where ${c.tokenAddress} = ${token} and ${c.interval} = ${q.interval}
                     and ${c.bucketStart} between to_timestamp(page_first) and to_timestamp(page_last)) b) as buckets
          from page`;
  return { first, answer: (r: CandlePage) => candles(r, q, step) };
}

export const tokenOhlcv = (db: Db, token: string, q: OhlcvQuery) => runRead(db, tokenOhlcvRead(token, q));

/** The page's candles from the statement's row: the intervals without events filled in. */
function candles(r: CandlePage, q: OhlcvQuery, step: number): z.infer<typeof ohlcvList> {
  const empty: z.infer<typeof ohlcvList> = { data: [], total: 0, page: q.page, limit: q.limit };
  if (r.head === null || r.first_bucket === null) return empty;
  const total = r.first <= r.last ? (r.last - r.first) / step + 1 : 0;
  if (r.page_first > r.last) return { ...empty, total };

  const byStart = new Map((r.buckets ?? []).map((b) => [b.bucket, b]));
  let close = r.previous;
  const data: z.infer<typeof candle>[] = [];
  for (let at = r.page_first; at <= r.page_last; at += step) {
    const b = byStart.get(at);
    const previous = close;
    if (b) close = b.close;
    // Before the first event of the page's range there is nothing to carry (only on the token's first candle).
    if (close === null) continue;
    // A candle opens where the one before it closed (the price it started at), so one trade draws a body; the
    // token's first candle opens at its first event's price. High and low take the open in.
    const open = b ? (previous ?? b.open) : close;
    data.push({
      time: secondsAt(at).toISOString(),
      open,
      high: b ? Math.max(b.high, open) : close,
      low: b ? Math.min(b.low, open) : close,
      close,
      volume_usd: round(b ? b.volume : 0, 2),
      trades: b ? b.trades : 0,
    });
  }
  return { data, total, page: q.page, limit: q.limit };
}
