import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { Indexer } from "@/worker/indexer/indexer";
import { expectIndexedEqualsChain } from "./chain-state";
import { createTestDatabase, type TestDatabase } from "./db";
import { DevchainMarket } from "./devchain-market";
import { saveDumpIfAsked } from "./dump";

/** The indexer against the dev chain (Hardhat node, project contracts): exact state, reorgs. */
let market: DevchainMarket;
let db: TestDatabase;
let sql: Sql;
let ix: Indexer;

async function syncToHead() {
  for (let i = 0; i < 200; i++) if ((await ix.cycle()).step === "idle") return;
  throw new Error("did not catch up");
}

describe("indexer on the dev chain", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    market = await DevchainMarket.start(3);
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    await market.simulate(80);
    ix = await Indexer.create({ sql, rpc: market.rpc, profile: market.profile, fullRefreshIntervalMs: 0 });
  }, 180_000);
  afterAll(async () => {
    await sql?.end();
    await market?.stop();
    await db?.drop();
  });

  it("after a scenario equals balanceOf, getReserves and totalSupply", async () => {
    await syncToHead();
    const seen = await expectIndexedEqualsChain(sql, market);
    // The launches, and the deployment's quirk tokens found through their pools (each with one liquidity add).
    const launched = market.tokens.length + market.deployment.quirkTokens.length;
    expect(seen.tokens).toBe(launched);
    const [e] = await sql<{ swaps: number; adds: number; transfers: number; priced: number }[]>`
      select count(*) filter (where type = 'swap')::int as swaps,
             count(*) filter (where type = 'liquidity_add')::int as adds,
             count(*) filter (where type = 'transfer')::int as transfers,
             count(*) filter (where amount_usd > 0)::int as priced
        from events`;
    expect(e.swaps).toBeGreaterThan(50);
    expect(e.adds).toBe(launched);
    expect(e.transfers).toBeGreaterThan(0);
    const [w] = await sql<{ funded: number }[]>`select count(*)::int as funded from wallets where funder is not null`;
    expect(w.funded).toBeGreaterThan(0);
    await saveDumpIfAsked("devchain-head", db.url);
  });

  it("reorgs of 1 to 20 blocks leave the state equal to the canonical chain", async () => {
    for (const [depth, branch] of [
      [1, 2],
      [4, 3],
      [9, 12],
      [20, 21],
    ]) {
      const revert = await market.snapshot();
      await market.simulate(depth, 3);
      await syncToHead();
      await revert();
      await market.simulate(branch, 3);
      await syncToHead();
      await expectIndexedEqualsChain(sql, market);
    }
    await saveDumpIfAsked("devchain-reorgs", db.url);
  });
});
