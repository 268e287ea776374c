import { insertSql, names, type OnConflict, PREPARED, type Tx, tableName } from "@/db/bulk";
import { events, ohlcvCandles } from "@/db/schema";
import { OHLCV_INTERVALS } from "@/lib/domain/vocab";

const c = names(ohlcvCandles);
const INTERVAL_NAMES = Object.keys(OHLCV_INTERVALS);
const INTERVAL_SECONDS = Object.values(OHLCV_INTERVALS);

/**
 * Candles already stored take the range's events after theirs: open kept, close replaced, high/low
 * extended, volume and trades added.
 */
const MERGE: OnConflict<typeof ohlcvCandles> = {
  target: ["tokenAddress", "interval", "bucketStart"],
  action: ["close"],
  set: {
    high: (stored, added) => `greatest(${stored}, ${added})`,
    low: (stored, added) => `least(${stored}, ${added})`,
    volumeUsd: (stored, added) => `${stored} + ${added}`,
    trades: (stored, added) => `${stored} + ${added}`,
  },
};

const ev = names(events);
const EVENTS = tableName(events);

/** The shortest interval: every interval is a whole number of them, so its candles make up the others'. */
const SHORTEST = Math.min(...INTERVAL_SECONDS);
if (INTERVAL_SECONDS.some((s) => s % SHORTEST !== 0))
  throw new Error("every OHLCV interval must be a whole number of the shortest");

/**
 * The candles of the pool events of e that `scope` joins and picks, in the buckets `keep` picks
 * (of intervals i: $1 names, $2 lengths), merged into the stored ones. A candle is the token's
 * price by the pricing rule after each of its swaps and liquidity changes (events.price_usd: 0
 * while no pool holds the minimum quote liquidity, so a pulled pool closes its candle at 0); it
 * opens at its first event by id and closes at its last; its volume and trades are its swaps'.
 * The events are grouped once into SHORTEST buckets (m), and every interval's candles are those
 * buckets' rolled up. A first or last price is the least or greatest [position, price] pair
 * (ids and times are exact as float8): an ordered array_agg sorts each group on PostgreSQL 15
 * and earlier (16 and later sort the input once, and time both alike).
 */
const writeCandles = (scope: { join: string; where: string; since: string }, keep: string) =>
  insertSql(
    ohlcvCandles,
    {
      tokenAddress: "g.token",
      interval: "g.interval",
      bucketStart: "to_timestamp(g.bucket)",
      open: "g.open",
      high: "g.high",
      low: "g.low",
      close: "g.close",
      volumeUsd: "g.volume",
      trades: "g.trades",
    },
    `from (
       select m.token, i.interval, m.bucket - m.bucket % i.seconds as bucket,
              (min(array[m.bucket::float8, m.open]))[2] as open, (max(array[m.bucket::float8, m.close]))[2] as close,
              max(m.high) as high, min(m.low) as low, sum(m.volume) as volume, sum(m.trades)::int as trades
         from (select s.token, s.since, s.epoch - s.epoch % ${SHORTEST} as bucket,
                      (min(array[s.id::float8, s.price]))[2] as open, (max(array[s.id::float8, s.price]))[2] as close,
                      max(s.price) as high, min(s.price) as low,
                      coalesce(sum(s.usd) filter (where s.swap), 0) as volume, count(*) filter (where s.swap) as trades
                 from (select e.${ev.tokenAddress} as token, e.${ev.id} as id,
                              extract(epoch from e.${ev.timestamp})::bigint as epoch, e.${ev.priceUsd} as price,
                              e.${ev.amountUsd}::numeric as usd, e.${ev.type} = 'swap' as swap, ${scope.since} as since
                         from ${EVENTS} e ${scope.join}
                        where e.${ev.priceUsd} is not null and ${scope.where}) s
                group by s.token, s.since, 3) m
        cross join unnest($1::text[], $2::int[]) i(interval, seconds)
        where ${keep}
        group by m.token, i.interval, 3) g`,
    MERGE,
  );

const MERGE_RANGE = writeCandles({ join: "", where: `e.${ev.blockNumber} >= $3`, since: "null" }, "true");

/** Candles of a range just written (its pool events: every event from `fromBlock` on), merged into the stored ones. */
export async function mergeRangeCandles(tx: Tx, fromBlock: number) {
  await tx.unsafe(MERGE_RANGE, [INTERVAL_NAMES, INTERVAL_SECONDS, fromBlock]);
}

/** A bucket of interval i at or after the one holding `since` (Unix seconds). */
const fromBucketOf = (epoch: string, since: string) => `${epoch} >= floor(${since} / i.seconds) * i.seconds`;

/** The candles of tokens $3 from the bucket of each interval that holds the token's time $4 on. */
const DELETE_AFFECTED = `delete from ${tableName(ohlcvCandles)} o
  using unnest($3::text[], $4::float8[]) k(token, since) cross join unnest($1::text[], $2::int[]) i(interval, seconds)
  where o.${c.tokenAddress} = k.token
    and o.${c.interval} = i.interval and ${fromBucketOf(`extract(epoch from o.${c.bucketStart})`, "k.since")}`;

/** The longest interval: every interval divides it, so its bucket holding a time starts no later than any other's. */
const LONGEST = Math.max(...INTERVAL_SECONDS);

const RECOMPUTE_AFFECTED = writeCandles(
  {
    join: `join unnest($3::text[], $4::float8[]) k(token, since) on k.token = e.${ev.tokenAddress}`,
    // Only the events of the buckets recomputed, not the token's whole history.
    where: `e.${ev.timestamp} >= to_timestamp(floor(k.since / ${LONGEST}) * ${LONGEST})`,
    since: "k.since",
  },
  fromBucketOf("m.bucket", "m.since"),
);

/**
 * After a reorg removed events: each token's candles from the buckets holding `since` (Unix
 * seconds, the token's first removed event) on, recomputed from the events that remain.
 * Subtracting the removed events could not restore a high, a low, an open or a close.
 */
export async function recomputeCandles(tx: Tx, since: { token: string; since: number }[]) {
  if (since.length === 0) return;
  const params = [INTERVAL_NAMES, INTERVAL_SECONDS, since.map((s) => s.token), since.map((s) => s.since)];
  await tx.unsafe(DELETE_AFFECTED, params);
  await tx.unsafe(RECOMPUTE_AFFECTED, params);
}

/**
 * A database indexed before the worker kept candles has pool events but no candles:
 * they are computed once, from every event, before indexing resumes.
 */
export async function fillMissingCandles(tx: Tx) {
  const [{ missing }] = await tx.unsafe<{ missing: boolean }[]>(
    `select not exists (select 1 from ${tableName(ohlcvCandles)})
            and exists (select 1 from ${EVENTS} where ${ev.type} = 'swap') as missing`,
    [],
    PREPARED,
  );
  if (!missing) return;
  await recomputeCandles(
    tx,
    await tx.unsafe<{ token: string; since: number }[]>(
      `select ${ev.tokenAddress} as token, extract(epoch from min(${ev.timestamp}))::float8 as since
        from ${EVENTS} group by ${ev.tokenAddress}`,
      [],
      PREPARED,
    ),
  );
}
