import { sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryPrepared } from "@/db/client";
import type { candle, ohlcvList } from "@/lib/api/schemas/market";
import { OHLCV_INTERVALS, type OhlcvInterval } from "@/lib/domain/vocab";
import { firstIdAfter } from "./events";
import { round } from "./format";

export type OhlcvQuery = { interval: OhlcvInterval; from?: Date; to?: Date; page: number; limit: number };

/** A token's priced swaps (a USD amount and a token amount): each one's price is its USD over its token amount. */
const PRICED_SWAPS = sql`e.token_address = t.address and e.type = 'swap' and e.amount_usd > 0 and e.token_amount > 0`;
const SWAP_PRICE = sql`e.amount_usd / (e.token_amount / power(10::numeric, t.decimals))::float8`;
/** No event has an id this high: the bound of a range that reaches past the last block. */
const NO_ID = sql`9223372036854775807`;

const secondsAt = (s: number) => new Date(s * 1000);

type Bucket = { bucket: number; open: number; high: number; low: number; close: number; volume: number; trades: number };

/**
 * USD candles of a token from its swaps (each swap's price: its USD over its token amount, the
 * pricing rule's value of the trade), oldest first: the candles that start within [from, to],
 * `to` at most the indexed head (its default), `from` by default `limit` candles back from `to`.
 * There are no candles before the token's first priced swap; after it, an interval without swaps
 * carries the previous close forward (open = high = low = close, volume 0), so the series has no
 * gaps and `total` is the number of intervals in the range. Null when the token is not indexed.
 */
export async function tokenOhlcv(db: Db, token: string, q: OhlcvQuery): Promise<z.infer<typeof ohlcvList> | null> {
  const step = OHLCV_INTERVALS[q.interval];
  const [t] = await queryPrepared<{ head: number | null; first_swap: number | null }>(
    db,
    sql`select extract(epoch from (select max(indexed_block_time) from sync_state))::float8 as head,
               (select extract(epoch from e.timestamp)::float8 from events e where ${PRICED_SWAPS} order by e.id limit 1) as first_swap
          from tokens t where t.address = ${token}`,
  );
  if (!t) return null;
  const empty: z.infer<typeof ohlcvList> = { data: [], total: 0, page: q.page, limit: q.limit };
  if (t.head === null || t.first_swap === null) return empty;
  const to = Math.min(q.to ? q.to.getTime() / 1000 : t.head, t.head);
  const last = Math.floor(to / step) * step;
  const from = q.from ? Math.ceil(q.from.getTime() / 1000 / step) * step : last - (q.limit - 1) * step;
  const first = Math.max(from, Math.floor(t.first_swap / step) * step);
  const total = first <= last ? (last - first) / step + 1 : 0;
  const pageFirst = first + (q.page - 1) * q.limit * step;
  if (pageFirst > last) return { ...empty, total };
  const pageLast = Math.min(last, pageFirst + (q.limit - 1) * step);
  const end = pageLast + step;

  // The id bounds keep the scan on events_token_idx within the page (a second early, for block
  // times with fractions); the time bounds are exact.
  const [rows] = await queryPrepared<{ previous: number | null; buckets: Bucket[] }>(
    db,
    sql`select (select ${SWAP_PRICE} from events e
                 where ${PRICED_SWAPS} and e.id < coalesce(${firstIdAfter(secondsAt(pageFirst - 1))}, ${NO_ID})
                   and e.timestamp < ${secondsAt(pageFirst).toISOString()}::timestamptz
                 order by e.id desc limit 1) as previous,
               (select coalesce(json_agg(b order by b.bucket), '[]') from (
                  select g.bucket, g.prices[1] as open, g.high, g.low, g.prices[cardinality(g.prices)] as close, g.volume, g.trades from (
                    select s.bucket, array_agg(s.price order by s.id) as prices, max(s.price) as high, min(s.price) as low,
                           sum(s.usd)::float8 as volume, count(*)::int as trades
                      from (
                        select floor(extract(epoch from e.timestamp) / ${step}) * ${step} as bucket, e.id, ${SWAP_PRICE} as price,
                               e.amount_usd::numeric as usd
                          from events e
                         where ${PRICED_SWAPS}
                           and e.id >= coalesce(${firstIdAfter(secondsAt(pageFirst - 1))}, ${NO_ID})
                           and e.id < coalesce(${firstIdAfter(secondsAt(end))}, ${NO_ID})
                           and e.timestamp >= ${secondsAt(pageFirst).toISOString()}::timestamptz
                           and e.timestamp < ${secondsAt(end).toISOString()}::timestamptz
                        -- OFFSET 0 keeps the subquery from being pulled up, which would copy the price
                        -- expression into every aggregate and evaluate it once per use.
                        offset 0) s
                     group by s.bucket) g) b) as buckets
          from tokens t where t.address = ${token}`,
  );
  const byStart = new Map(rows.buckets.map((b) => [Number(b.bucket), b]));
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
