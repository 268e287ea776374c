import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnWorker, stopWorker } from "./child";
import { createTestDatabase, type TestDatabase } from "./db";
import { dumpChainTables } from "./dump";
import { FakeMarket, fakeProfile } from "./fake-market";
import { startFaultyProxy } from "./faulty-proxy";

/**
 * Crash and provider-fault safety of the worker process (fake chain): kill -9 at random moments
 * and a faulty RPC proxy both end in the same tables as an undisturbed run.
 */
const market = new FakeMarket(11);
const profile = { ...fakeProfile, initialBlockRange: 20 };
const dbs: TestDatabase[] = [];
let reference: Record<string, string[]>;

async function cleanRun(rpcUrl: string) {
  const db = await createTestDatabase();
  dbs.push(db);
  const w = spawnWorker(db.url, rpcUrl, profile);
  await w.caughtUp;
  await stopWorker(w);
  return db;
}

describe("worker under faults (fake chain)", { timeout: 240_000 }, () => {
  beforeAll(async () => {
    market.simulate(800, 4);
    await market.chain.listen();
    reference = await dumpChainTables((await cleanRun(market.chain.url)).url);
  }, 240_000);
  afterAll(async () => {
    await market.chain.close();
    for (const db of dbs) await db.drop();
  });

  it("ends identical to an undisturbed run after 10+ kill -9 during one sync", async () => {
    // Latency and a range limit stretch the sync over several seconds, so kills land mid-sync.
    const proxy = await startFaultyProxy(market.chain.url, { errorRate: 0, hangRate: 0, maxLogRange: 25, latencyMs: 5 });
    const db = await createTestDatabase();
    dbs.push(db);
    let kills = 0;
    for (let round = 0; round < 30 && kills < 12; round++) {
      const w = spawnWorker(db.url, proxy.url, profile);
      await w.active;
      const killAt = Math.random() * 600;
      const done = await Promise.race([w.caughtUp.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), killAt))]);
      w.proc.kill("SIGKILL");
      await w.exited;
      if (done) break;
      kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(10);
    const last = spawnWorker(db.url, proxy.url, profile);
    await last.caughtUp;
    await stopWorker(last);
    await proxy.close();
    expect(await dumpChainTables(db.url)).toEqual(reference);
  });

  it("ends identical to an undisturbed run behind a proxy injecting errors, hangs and range limits", async () => {
    const proxy = await startFaultyProxy(market.chain.url, { errorRate: 0.15, hangRate: 0.03, maxLogRange: 120, seed: 5 });
    const db = await createTestDatabase();
    dbs.push(db);
    const w = spawnWorker(db.url, proxy.url, profile);
    await w.caughtUp;
    await stopWorker(w);
    await proxy.close();
    expect(proxy.stats.errors).toBeGreaterThan(5);
    expect(proxy.stats.rangeErrors).toBeGreaterThan(0);
    expect(await dumpChainTables(db.url)).toEqual(reference);
  });
});
