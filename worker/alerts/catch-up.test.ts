import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { alerts } from "@/db/schema";
import { writeHeartbeat } from "@/worker/indexer/checkpoint";
import { readHead } from "@/worker/indexer/head";
import { Indexer } from "@/worker/indexer/indexer";
import { Rpc } from "@/worker/indexer/rpc";
import { createTestDatabase, type TestDatabase } from "@/worker/test/db";
import { addr, FakeChain, ZERO } from "@/worker/test/fake-chain";
import { fakeProfile } from "@/worker/test/fake-market";
import { AlertEvaluator } from "./evaluate";
import { newAlert, newOwner, notificationsOf } from "./test/fixtures";

/**
 * Alerts speak of the present. A backfill indexes two days of blocks while the chain moves on:
 * the cycle ends at the head it read when it started, two days behind the head the worker's
 * probe reads meanwhile. An alert for tokens younger than a day, created before the worker
 * started, would fire about a token as young as it was two days ago; it waits until the worker
 * is near the head, then fires once about what is young now, at the head's time.
 */
const E18 = 10n ** 18n;
const profile = fakeProfile;
const [WETH, USD] = [profile.weth, profile.quoteTokens[1].address];
const [FACTORY, LAUNCHPAD] = [profile.factories[0].address, profile.launchpads[0].address];
const START = 1_900_000_000;
const HOUR = 3_600;

const chain = new FakeChain(START);
let testDb: TestDatabase;
let sql: Sql;
let db: Db;
let rpc: Rpc;
let alertId: string;

/** The worker's head probe, once: reads the chain's head and writes it with the heartbeat. */
async function probe() {
  const head = await readHead(rpc);
  await writeHeartbeat(sql, profile.chainId, head);
  return head;
}

/** Indexing cycles until one ends idle at the head, each followed by the evaluator's hook. */
async function catchUp(indexer: Indexer, evaluator: AlertEvaluator) {
  for (let i = 0; i < 20; i++) {
    const cycle = await indexer.cycle();
    await evaluator.afterCycle({ sql, ...cycle });
    if (cycle.step === "idle") return cycle;
  }
  throw new Error("did not catch up");
}

/** Launches token `n` through the launchpad, with a WETH pool, in the next block. */
function launch(n: number, timeStep: number) {
  const [token, pair, creator] = [addr(0x1000 + n), addr(0x2000 + n), addr(0x500 + n)];
  const supply = 1_000_000n * E18;
  chain
    .tx(creator)
    .pairCreated(FACTORY, token, WETH, pair)
    .transfer(token, ZERO, LAUNCHPAD, supply)
    .transfer(token, LAUNCHPAD, pair, supply / 2n)
    .sync(pair, supply / 2n, 10n * E18)
    .mint(pair, LAUNCHPAD, supply / 2n, 10n * E18)
    .launched(LAUNCHPAD, token, pair, creator, `Launch ${n}`, `L${n}`, supply);
  chain.mine(timeStep);
  return token;
}

describe("alerts while the worker catches up", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    testDb = await createTestDatabase("alerts_catch_up");
    sql = connect(testDb.url, { max: 4 });
    db = createDb(sql);
    await chain.listen();
  });
  afterAll(async () => {
    await sql?.end();
    await chain.close();
    await testDb?.drop();
  });

  it("wait while the data is behind the head, then fire once on the present, at the head's time", async () => {
    chain
      .tx(addr(1))
      .pairCreated(FACTORY, WETH, USD, addr(0xa0))
      .sync(addr(0xa0), 100n * E18, 300_000n * 10n ** 6n);
    chain.mine();
    const old = launch(1, 12);
    chain.mine();
    const owner = await newOwner(db);
    alertId = (await newAlert(db, owner, { max_age_hours: 24 })).id;

    rpc = new Rpc({ url: chain.url, addressChunkSize: 3 });
    const indexer = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    const evaluator = new AlertEvaluator();
    const first = await indexer.cycle();
    expect(first.indexedBlock).toBe(first.head);

    // Meanwhile two days of blocks, a launch an hour before the head, and the probe reads the head.
    for (let h = 0; h < 46; h++) chain.mine(HOUR);
    const young = launch(2, HOUR);
    chain.mine(HOUR);
    const head = await probe();
    await evaluator.afterCycle({ sql, ...first });
    expect(await notificationsOf(sql)).toEqual([]);

    // Caught up: one firing, about the token young now, as of the head.
    expect(await catchUp(indexer, evaluator)).toMatchObject({ indexedBlock: head.number, indexedTime: head.timestamp });
    const sent = await notificationsOf(sql);
    expect(sent).toHaveLength(1);
    const at = new Date(head.timestamp * 1000).toISOString();
    const matches = [{ address: young, matched_at: at }];
    expect(sent[0].payload).toMatchObject({ triggered_at: at, total_matches: 1, matches });
    expect(sent[0].payload.matches.map((m) => m.address)).not.toContain(old);
    const [row] = await db.select().from(alerts).where(eq(alerts.id, alertId));
    expect(row.lastTriggeredAt?.toISOString()).toBe(at);
  });

  it("after downtime, a restarted worker announces only what matches once it is back at the head", async () => {
    // A day and a half down: one launch early on (no longer young when the worker is back), one late.
    const early = launch(3, HOUR);
    for (let h = 0; h < 30; h++) chain.mine(HOUR);
    const late = launch(4, HOUR);
    chain.mine(HOUR);

    const indexer = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    const evaluator = new AlertEvaluator();
    const first = await indexer.cycle();
    // The chain moved on during that catch-up cycle.
    chain.mine(HOUR);
    const head = await probe();
    await evaluator.afterCycle({ sql, ...first });
    expect(await notificationsOf(sql)).toHaveLength(1);

    await catchUp(indexer, evaluator);
    const sent = await notificationsOf(sql);
    expect(sent).toHaveLength(2);
    const at = new Date(head.timestamp * 1000).toISOString();
    expect(sent[1].payload).toMatchObject({ triggered_at: at, total_matches: 1, matches: [{ address: late }] });
    expect(sent.flatMap((n) => n.payload.matches.map((m) => m.address))).not.toContain(early);
  });
});
