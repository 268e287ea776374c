import { sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryPrepared } from "@/db/client";
import type { candle, ohlcvList } from "@/lib/api/schemas/market";
import { OHLCV_INTERVALS, type OhlcvInterval } from "@/lib/domain/vocab";
import { round } from "./format";

export type OhlcvQuery = { interval: OhlcvInterval; from?: Date; to?: Date; page: number; limit: number };

const secondsAt = (s: number) => new Date(s * 1000);

type Bucket = { bucket: number; open: number; high: number; low: number; close: number; volume: number; trades: number };

/**
 * USD candles of a token from its swaps (each swap's price: its USD over its token amount, the
 * pricing rule's value of the trade), oldest first: the candles that start within [from, to],
 * `to` at most the indexed head (its default), `from` by default `limit` candles back from `to`.
 * There are no candles before the token's first priced swap; after it, an interval without swaps
 * carries the previous close forward (open = high = low = close, volume 0), so the series has no
 * gaps and `total` is the number of intervals in the range. Null when the token is not indexed.
 * The buckets with swaps are the worker's (ohlcv_candles, worker/derive/candles.ts): a page reads
 * at most `limit` rows of the key, whatever the token's trading.
 */
export async function tokenOhlcv(db: Db, token: string, q: OhlcvQuery): Promise<z.infer<typeof ohlcvList> | null> {
  const step = OHLCV_INTERVALS[q.interval];
  const [t] = await queryPrepared<{ head: number | null; first_bucket: number | null }>(
    db,
    sql`select extract(epoch from (select max(indexed_block_time) from sync_state))::float8 as head,
               (select extract(epoch from c.bucket_start)::float8 from ohlcv_candles c
                 where c.token_address = t.address and c.interval = ${q.interval} order by c.bucket_start limit 1) as first_bucket
          from tokens t where t.address = ${token}`,
  );
  if (!t) return null;
  const empty: z.infer<typeof ohlcvList> = { data: [], total: 0, page: q.page, limit: q.limit };
  if (t.head === null || t.first_bucket === null) return empty;
  const to = Math.min(q.to ? q.to.getTime() / 1000 : t.head, t.head);
  const last = Math.floor(to / step) * step;
  const from = q.from ? Math.ceil(q.from.getTime() / 1000 / step) * step : last - (q.limit - 1) * step;
  const first = Math.max(from, t.first_bucket);
  const total = first <= last ? (last - first) / step + 1 : 0;
  const pageFirst = first + (q.page - 1) * q.limit * step;
  if (pageFirst > last) return { ...empty, total };
  const pageLast = Math.min(last, pageFirst + (q.limit - 1) * step);

  const [rows] = await queryPrepared<{ previous: number | null; buckets: Bucket[] }>(
    db,
    sql`select (select c.close from ohlcv_candles c
                 where c.token_address = ${token} and c.interval = ${q.interval} and c.bucket_start < ${secondsAt(pageFirst).toISOString()}::timestamptz
                 order by c.bucket_start desc limit 1) as previous,
               (select coalesce(json_agg(b order by b.bucket), '[]') from (
                  select extract(epoch from c.bucket_start)::float8 as bucket, c.open, c.high, c.low, c.close, c.volume_usd::float8 as volume, c.trades
                    from ohlcv_candles c
                   where c.token_address = ${token} and c.interval = ${q.interval}
                     and c.bucket_start between ${secondsAt(pageFirst).toISOString()}::timestamptz and ${secondsAt(pageLast).toISOString()}::timestamptz) b) as buckets`,
  );
  const byStart = new Map(rows.buckets.map((b) => [b.bucket, b]));
  let close = rows.previous;
  const data: z.infer<typeof candle>[] = [];
  for (let at = pageFirst; at <= pageLast; at += step) {
    const b = byStart.get(at);
    if (b) close = b.close;
    // Before the first swap of the page's range there is nothing to carry (only on the token's first candle, which has swaps).
    if (close === null) continue;
    data.push({
      time: secondsAt(at).toISOString(),
      open: b ? b.open : close,
      high: b ? b.high : close,
      low: b ? b.low : close,
      close,
      volume_usd: round(b ? b.volume : 0, 2),
      trades: b ? b.trades : 0,
    });
  }
  return { data, total, page: q.page, limit: q.limit };
}
