import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnWorker, stopWorker } from "./child";
import { createTestDatabase, type TestDatabase } from "./db";
import { DevchainMarket } from "./devchain-market";
import { dumpChainTables, dumpDifferences } from "./dump";
import { startFaultyProxy } from "./faulty-proxy";

/**
 * Crash and provider-fault safety of the worker process on the dev chain: kill -9 at random
 * moments and a faulty RPC proxy both end in the same tables as an undisturbed run.
 */
let market: DevchainMarket;
const dbs: TestDatabase[] = [];
let reference: Record<string, string[]>;
let referenceDb: TestDatabase;

async function cleanRun(rpcUrl: string) {
  const db = await createTestDatabase();
  dbs.push(db);
  const w = spawnWorker(db.url, rpcUrl, market.profile);
  await w.caughtUp;
  await stopWorker(w);
  return db;
}

describe("worker under faults (dev chain)", { timeout: 240_000 }, () => {
  beforeAll(async () => {
    market = await DevchainMarket.start(5);
    await market.simulate(300, 4);
    referenceDb = await cleanRun(market.chain.rpcUrl);
    reference = await dumpChainTables(referenceDb.url);
  }, 240_000);
  afterAll(async () => {
    await market?.stop();
    for (const db of dbs) await db.drop();
  });

  it("no score depends on whether the wallets were scored before or after it", async () => {
    // A restart's full refresh finds every wallet scored; then one finds none, as a first refresh does.
    for (const before of [null, "delete from wallet_scores"]) {
      if (before) {
        const sql = postgres(referenceDb.url, { max: 1 });
        await sql.unsafe(before);
        await sql.end();
      }
      const w = spawnWorker(referenceDb.url, market.chain.rpcUrl, market.profile);
      await w.caughtUp;
      await stopWorker(w);
      expect(dumpDifferences(await dumpChainTables(referenceDb.url), reference)).toEqual([]);
    }
  });

  it("ends identical to an undisturbed run after 10+ kill -9 during one sync", async () => {
    // Latency and a range limit stretch the sync over several seconds, so kills land mid-sync.
    const proxy = await startFaultyProxy(market.chain.rpcUrl, {
      errorRate: 0,
      hangRate: 0,
      maxLogRange: 5,
      latencyMs: 10,
    });
    const db = await createTestDatabase();
    dbs.push(db);
    let kills = 0;
    for (let round = 0; round < 30 && kills < 12; round++) {
      const w = spawnWorker(db.url, proxy.url, market.profile);
      await w.active;
      const killAt = Math.random() * 600;
      const done = await Promise.race([
        w.caughtUp.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), killAt)),
      ]);
      w.proc.kill("SIGKILL");
      await w.exited;
      if (done) break;
      kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(10);
    const last = spawnWorker(db.url, proxy.url, market.profile);
    await last.caughtUp;
    await stopWorker(last);
    await proxy.close();
    expect(dumpDifferences(await dumpChainTables(db.url), reference)).toEqual([]);
  });

  it("ends identical to an undisturbed run behind a proxy injecting errors, hangs and range limits", async () => {
    const proxy = await startFaultyProxy(market.chain.rpcUrl, {
      errorRate: 0.2,
      hangRate: 0.04,
      maxLogRange: 60,
      seed: 5,
    });
    const db = await createTestDatabase();
    dbs.push(db);
    const w = spawnWorker(db.url, proxy.url, market.profile);
    await w.caughtUp;
    await stopWorker(w);
    await proxy.close();
    expect(proxy.stats.errors + proxy.stats.hangs).toBeGreaterThanOrEqual(5);
    expect(proxy.stats.rangeErrors).toBeGreaterThan(0);
    expect(dumpDifferences(await dumpChainTables(db.url), reference)).toEqual([]);
  });

  it("a standby worker waits on the advisory lock and takes over when the active one dies", async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const first = spawnWorker(db.url, market.chain.rpcUrl, market.profile);
    await first.active;
    const second = spawnWorker(db.url, market.chain.rpcUrl, market.profile);
    await second.standby;
    first.proc.kill("SIGKILL");
    await first.exited;
    await second.active;
    await second.caughtUp;
    await stopWorker(second);
    expect(dumpDifferences(await dumpChainTables(db.url), reference)).toEqual([]);
  });
});
