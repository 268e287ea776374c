import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { indexedTimeSql } from "./clock";
import { round } from "./format";

/** Chart buckets: the smallest width that draws the span in at most MAX_BUCKETS bars. */
const BUCKET_MINUTES = [5, 15, 30, 60, 120, 240, 360, 720, 1440];
const MAX_BUCKETS = 60;
const MAX_SPAN_DAYS = 7;

export type PricePoint = { t: string; price_usd: number | null; volume_usd: number; trades: number };

/**
 * Price and volume of a token from its swaps: per bucket, the volume-weighted average price
 * (USD over token units, swaps of known USD value only) and the USD volume, up to the indexed head.
 */
export async function priceVolumeSeries(db: Db, token: string, createdAt: Date) {
  const [head] = await db.execute<{ t: Date | null }>(sql`select ${indexedTimeSql} as t`);
  const now = head?.t ? new Date(head.t) : createdAt;
  const from = new Date(Math.max(createdAt.getTime(), now.getTime() - MAX_SPAN_DAYS * 86_400_000));
  const spanMinutes = (now.getTime() - from.getTime()) / 60_000;
  const bucketMinutes = BUCKET_MINUTES.find((m) => spanMinutes / m <= MAX_BUCKETS) ?? BUCKET_MINUTES.at(-1)!;
  const rows = await db.execute<{ t: Date; usd: number | null; units: number | null; volume: number; trades: number }>(sql`
    select date_bin(${`${bucketMinutes} minutes`}::interval, e.timestamp, ${from.toISOString()}::timestamptz) as t,
           sum(e.amount_usd) filter (where e.amount_usd > 0) as usd,
           (sum(e.token_amount) filter (where e.amount_usd > 0) / power(10::numeric, (select decimals from tokens where address = ${token})))::float8 as units,
           sum(e.amount_usd) as volume,
           count(*)::int as trades
      from events e
     where e.token_address = ${token} and e.type = 'swap' and e.timestamp >= ${from.toISOString()}::timestamptz
     group by 1
     order by 1`);
  const points: PricePoint[] = rows.map((r) => ({
    t: new Date(r.t).toISOString(),
    price_usd: r.usd && r.units ? r.usd / r.units : null,
    volume_usd: round(r.volume, 2),
    trades: r.trades,
  }));
  return { bucket_minutes: bucketMinutes, from: from.toISOString(), to: now.toISOString(), points };
}
export type PriceVolumeSeries = Awaited<ReturnType<typeof priceVolumeSeries>>;
