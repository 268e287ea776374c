import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { INVARIANTS } from "@/scripts/fixtures/invariants";
import { Indexer } from "@/worker/indexer/indexer";
import { Rpc } from "@/worker/indexer/rpc";
import { createTestDatabase, type TestDatabase } from "./db";
import { FakeMarket, fakeProfile as profile } from "./fake-market";

/**
 * The candles the worker keeps range by range, merged into stored buckets and rolled back by
 * reorgs, equal candles computed at once from the events that remain (the fixtures' invariant:
 * the rule written a second time, as a window over each bucket's swaps in event id order).
 */
let db: TestDatabase;
let sql: Sql;
let rpc: Rpc;
const market = new FakeMarket(11);
const chain = market.chain;

async function syncToHead(ix: Indexer) {
  for (let i = 0; i < 100; i++) if ((await ix.cycle()).step === "idle") return;
  throw new Error("did not catch up");
}

async function expectCandlesFromEvents() {
  const [{ candles }] = await sql<{ candles: number }[]>`select count(*)::int as candles from ohlcv_candles`;
  expect(candles).toBeGreaterThan(0);
  const [{ count }] = await sql.unsafe<{ count: string }[]>(
    INVARIANTS["ohlcv_candles are the candles of the pool events that remain"],
  );
  expect(Number(count), "candles unlike those of the pool events").toBe(0);
}

describe("candles (fake chain)", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    await chain.listen();
    rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
    market.simulate(80);
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await chain.close();
    await db?.drop();
  });

  it("merges each range's swaps into the candles a recompute from every event gives", async () => {
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    await syncToHead(ix);
    await expectCandlesFromEvents();
    // Ranges of a few 12 s blocks: minute buckets were merged across ranges.
    const [{ merged }] = await sql<
      { merged: number }[]
    >`select count(*)::int as merged from ohlcv_candles where interval = '1h' and trades > 20`;
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
