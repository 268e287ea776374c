import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { probeChainHead, resetChainHeadProbe } from "@/lib/queries/chain-head";
import { getStatus, type Status } from "@/lib/queries/status";
import { freePort } from "@/tests/setup/server";
import { startWorker } from "@/worker/worker";
import { createTestDatabase, type TestDatabase } from "./db";
import { DevchainMarket } from "./devchain-market";

/**
 * GET /v1/status against a real worker on the dev chain: the head comes from the worker's own
 * probe, so an indexing loop that fails on every cycle (here a poisoned insert, as an
 * unstorable token name did) shows as a growing lag behind the real head, not as "0 blocks
 * behind"; a dead worker leaves the lag unknown, never 0.
 */
let market: DevchainMarket;
let testDb: TestDatabase;
let sql: Sql;
let db: Db;

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function runWorker() {
  const controller = new AbortController();
  const done = startWorker({
    databaseUrl: testDb.url,
    rpcUrl: market.chain.rpcUrl,
    profile: market.profile,
    pollIntervalMs: 100,
    fullRefreshIntervalMs: 0,
    headProbeIntervalMs: 200,
    signal: controller.signal,
  });
  return { stop: async () => (controller.abort(), await done) };
}

describe("status (dev chain, worker in process)", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    market = await DevchainMarket.start(4);
    testDb = await createTestDatabase();
    sql = connect(testDb.url, { max: 4 });
    db = createDb(sql);
    await market.simulate(10, 2);
  }, 180_000);
  afterAll(async () => {
    await sql?.end();
    await market?.stop();
    await testDb?.drop();
  });

  it("tells a failing indexing loop and a dead worker from a healthy one", async () => {
    let status!: Status;
    const read = async (at = new Date()) => (status = await getStatus(db, at));
    const worker = runWorker();
    let head = await market.head();
    await until("caught up", async () => (await read()).indexed_block === head && status.healthy);
    expect(status).toMatchObject({
      head_block: head,
      lag_blocks: 0,
      lag_seconds: 0,
      reasons: [],
      quarantined_entities: 0,
    });
    expect(status.worker).toMatchObject({ alive: true, consecutive_failures: 0 });
    expect(status.message).toMatch(/^Indexed to block/);

    // Every commit fails from now on, while the chain moves on (12 s a block).
    await sql.unsafe(`
      create function poison() returns trigger language plpgsql as $$ begin raise exception 'poisoned insert'; end $$;
      create trigger poison before insert on events for each statement execute function poison();`);
    const stuckAt = status.indexed_block!;
    await market.simulate(8, 2);
    head = await market.head();
    await until(
      "the failing loop reported",
      async () => (await read()).head_block === head && status.reasons.includes("indexing_failing"),
    );
    expect(status.indexed_block).toBe(stuckAt);
    expect(status.lag_blocks).toBe(head - stuckAt);
    expect(status.lag_seconds).toBe((head - stuckAt) * 12);
    expect(status).toMatchObject({ healthy: false, reasons: ["lagging", "indexing_failing"] });
    expect(status.worker.alive).toBe(true);
    expect(status.worker.consecutive_failures).toBeGreaterThanOrEqual(3);
    expect(status.message).toContain(`${head - stuckAt} blocks`);

    // The worker dies: 31 s later its heartbeat and its head are stale, and the lag is unknown.
    await worker.stop();
    await read(new Date(Date.now() + 31_000));
    expect(status).toMatchObject({
      healthy: false,
      head_block: head,
      indexed_block: stuckAt,
      lag_blocks: null,
      lag_seconds: null,
    });
    expect(status.reasons).toContain("worker_down");
    expect(status.reasons).not.toContain("lagging");
    expect(status.worker.alive).toBe(false);
    expect(status.message).toMatch(/indexer is not running/);

    // Cured and restarted: caught up, healthy, the failure count reset.
    await sql.unsafe(`drop trigger poison on events; drop function poison();`);
    const again = runWorker();
    try {
      await until("caught up again", async () => (await read()).indexed_block === head && status.healthy);
      expect(status).toMatchObject({ lag_blocks: 0, reasons: [], worker: { alive: true, consecutive_failures: 0 } });
    } finally {
      await again.stop();
    }
  });

  it("the web app's own head probe reads the node, caches briefly, and gives up quickly on a dead one", async () => {
    resetChainHeadProbe();
    const now = new Date();
    const head = await probeChainHead(market.chain.rpcUrl, now);
    expect(head).toMatchObject({ number: await market.head(), checkedAt: now.getTime() });
    await market.mine();
    expect(await probeChainHead(market.chain.rpcUrl, new Date(now.getTime() + 1_000))).toEqual(head);
    expect((await probeChainHead(market.chain.rpcUrl, new Date(now.getTime() + 2_500)))?.number).toBe(head!.number + 1);
    const dead = `http://127.0.0.1:${await freePort()}`;
    const started = Date.now();
    expect(await probeChainHead(dead, new Date())).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
