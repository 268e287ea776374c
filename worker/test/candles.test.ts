import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { OHLCV_INTERVALS } from "@/lib/domain/vocab";
import { Indexer } from "@/worker/indexer/indexer";
import { Rpc } from "@/worker/indexer/rpc";
import { createTestDatabase, type TestDatabase } from "./db";
import { FakeMarket, fakeProfile as profile } from "./fake-market";

/**
 * The candles the worker keeps range by range, merged into stored buckets and rolled back by
 * reorgs, equal candles computed at once from the events that remain: the rule written a second
 * time (a window over each bucket's swaps in event id order).
 */
let db: TestDatabase;
let sql: Sql;
let rpc: Rpc;
const market = new FakeMarket(11);

async function syncToHead(ix: Indexer) {
  for (let i = 0; i < 100; i++) if ((await ix.cycle()).step === "idle") return;
  throw new Error("did not catch up");
}

const row = (r: Record<string, unknown>) => JSON.stringify(r);

async function stored() {
  const rows = await sql<Record<string, unknown>[]>`
    select token_address as token, interval, extract(epoch from bucket_start)::float8 as bucket, open, high, low, close,
           volume_usd::text as volume, trades
      from ohlcv_candles order by 1, 2, 3`;
  return rows.map(row);
}

async function fromEvents() {
  const rows = await sql<Record<string, unknown>[]>`
    select distinct on (token, interval, bucket) token, interval, bucket::float8,
           first_value(price) over w as open, max(price) over w as high, min(price) over w as low, last_value(price) over w as close,
           (sum(usd) over w)::text as volume, (count(*) over w)::int as trades
      from (select e.token_address as token, e.id, i.interval, floor(extract(epoch from e.timestamp) / i.seconds) * i.seconds as bucket,
                   e.amount_usd / (e.token_amount / power(10::numeric, t.decimals))::float8 as price, e.amount_usd::numeric as usd
              from events e join tokens t on t.address = e.token_address
             cross join unnest(${Object.keys(OHLCV_INTERVALS)}::text[], ${Object.values(OHLCV_INTERVALS)}::int[]) i(interval, seconds)
             where e.type = 'swap' and e.amount_usd > 0 and e.token_amount > 0) s
    window w as (partition by token, interval, bucket order by id rows between unbounded preceding and unbounded following)
     order by 1, 2, 3`;
  return rows.map(row);
}

async function expectCandlesFromEvents() {
  const expected = await fromEvents();
  expect(expected.length).toBeGreaterThan(0);
  expect(await stored()).toEqual(expected);
}

describe("candles (fake chain)", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    await chain().listen();
    rpc = new Rpc({ url: chain().url, addressChunkSize: profile.addressChunkSize });
    market.simulate(80);
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await chain().close();
    await db?.drop();
  });
  const chain = () => market.chain;

  it("merges each range's swaps into the candles a recompute from every event gives", async () => {
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    await syncToHead(ix);
    await expectCandlesFromEvents();
    // Ranges of a few 12 s blocks: minute buckets were merged across ranges.
    const [{ merged }] = await sql<{ merged: number }[]>`select count(*)::int as merged from ohlcv_candles where interval = '1h' and trades > 20`;
    expect(merged).toBeGreaterThan(0);
  });

  it("after reorgs, recomputes the affected buckets from the events that remain", async () => {
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    for (const [depth, branch] of [
      [1, 3],
      [4, 1],
      [9, 12],
      [20, 6],
    ]) {
      market.simulate(depth + 30);
      await syncToHead(ix);
      market.reorg(depth);
      market.simulate(branch);
      await syncToHead(ix);
      await expectCandlesFromEvents();
    }
    // Deeper than finality: the restart rolls back before backfilling.
    market.reorg(40);
    market.simulate(10);
    await syncToHead(await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 }));
    await expectCandlesFromEvents();
  });

  it("a database indexed before candles were kept gets them all when the worker starts", async () => {
    await sql`delete from ohlcv_candles`;
    await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    await expectCandlesFromEvents();
  });
});
