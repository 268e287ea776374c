import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { Indexer } from "@/worker/indexer/indexer";
import { Rpc } from "@/worker/indexer/rpc";
import { startWorker } from "@/worker/worker";
import { createTestDatabase, type TestDatabase } from "./db";
import { FakeMarket, fakeProfile as profile } from "./fake-market";

/** The sync engine against an in-memory chain: exact state after a scenario, and after reorgs. */
let db: TestDatabase;
let sql: Sql;
let rpc: Rpc;
const market = new FakeMarket();
const chain = market.chain;

async function syncToHead(ix: Indexer) {
  for (let i = 0; i < 100; i++) {
    const r = await ix.cycle();
    if (r.step === "idle") return;
  }
  throw new Error("did not catch up");
}

async function expectChainState() {
  const rows = await sql<{ token_address: string; holder: string; amount: string }[]>`
    select token_address, holder, amount::text from balances where amount <> 0`;
  const indexed = new Map(rows.map((r) => [`${r.token_address}:${r.holder}`, BigInt(r.amount)]));
  expect(indexed).toEqual(new Map([...chain.balances].filter(([, v]) => v !== 0n)));
  const pools = await sql<{ address: string; reserve0: string; reserve1: string }[]>`select address, reserve0::text, reserve1::text from pools`;
  for (const p of pools) expect([BigInt(p.reserve0), BigInt(p.reserve1)]).toEqual(chain.reserves.get(p.address));
  const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from events`;
  const [{ count }] = await sql<{ count: string }[]>`select count::text from event_counts where scope = 'all'`;
  expect(Number(count)).toBe(n);
}

describe("sync engine (fake chain)", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    await chain.listen();
    rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
    market.simulate(60);
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await chain.close();
    await db?.drop();
  });

  it("indexes a market to the chain's exact balances and reserves", async () => {
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    await syncToHead(ix);
    await expectChainState();
    const [m] = await sql<{ n: number; priced: number }[]>`
      select count(*)::int as n, count(*) filter (where price_usd > 0)::int as priced from token_metrics`;
    expect(m).toEqual({ n: market.tokenCount, priced: market.tokenCount });
    const [w] = await sql<{ n: number; funded: number }[]>`
      select count(*) filter (where trade_count > 0)::int as n, count(funder)::int as funded from wallets`;
    expect(w.n).toBeGreaterThan(10);
    expect(w.funded).toBeGreaterThan(0);
  });

  it("rolls back reorgs of 1 to 20 blocks to the canonical chain", async () => {
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    // The new branch is longer, or shorter (the head goes back below the indexed block).
    for (const [depth, branch] of [
      [1, 3],
      [2, 1],
      [5, 7],
      [12, 4],
      [20, 22],
    ]) {
      market.simulate(depth + 25);
      await syncToHead(ix);
      market.reorg(depth);
      market.simulate(branch);
      await syncToHead(ix);
      await expectChainState();
    }
  });

  it("a restart against a chain that replaced blocks deeper than finality rolls back before backfilling", async () => {
    market.reorg(40);
    market.simulate(60);
    const restarted = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    await syncToHead(restarted);
    await expectChainState();
  });

  it("the worker refuses a node of another chain than its profile's, saying which", async () => {
    const run = startWorker({ databaseUrl: db.url, rpcUrl: chain.url, profile: { ...profile, name: "base", chainId: 8453 }, pollIntervalMs: 10 });
    await expect(run).rejects.toThrow("RPC_URL serves chain id 31337, but CHAIN_PROFILE=base is chain id 8453");
  });
});
