import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { WINDOWS } from "@/lib/scoring/weights";
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
  const pools = await sql<
    { address: string; reserve0: string; reserve1: string }[]
  >`select address, reserve0::text, reserve1::text from pools`;
  for (const p of pools) expect([BigInt(p.reserve0), BigInt(p.reserve1)]).toEqual(chain.reserves.get(p.address));
  const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from events`;
  const [{ count }] = await sql<{ count: string }[]>`select count::text from event_counts where scope = 'all'`;
  expect(Number(count)).toBe(n);
  await expectRecentFlows();
}

/**
 * recent_trader_flows against each trader's swap buys and sells in the net-activity window up to
 * the indexed head, summed here from the events. Returns the number of (token, trader) rows.
 */
async function expectRecentFlows(): Promise<number> {
  const [{ head }] = await sql<
    { head: number }[]
  >`select extract(epoch from indexed_block_time)::float8 as head from sync_state`;
  const swaps = await sql<{ key: string; direction: string; amount: string; at: number }[]>`
    select token_address || ':' || wallet_address as key, direction, token_amount::text as amount,
           extract(epoch from timestamp)::float8 as at
      from events where type = 'swap'`;
  const expected = new Map<string, [bigint, bigint]>();
  for (const s of swaps.filter((s) => s.at > head - WINDOWS.netActivitySeconds)) {
    const flow = expected.get(s.key) ?? [0n, 0n];
    flow[s.direction === "buy" ? 0 : 1] += BigInt(s.amount);
    expected.set(s.key, flow);
  }
  const rows = await sql<{ key: string; bought: string; sold: string }[]>`
    select token_address || ':' || wallet as key, bought::text, sold::text from recent_trader_flows`;
  expect(new Map(rows.map((r) => [r.key, [BigInt(r.bought), BigInt(r.sold)]]))).toEqual(expected);
  return expected.size;
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

  it("derives each token's price changes, 1 h/24 h volume, trades, makers, FDV from its events", async () => {
    const [{ head }] = await sql<
      { head: number }[]
    >`select extract(epoch from indexed_block_time)::float8 as head from sync_state`;
    const events = await sql<
      {
        token: string;
        wallet: string;
        type: string;
        direction: string;
        usd: number;
        price: number | null;
        at: number;
      }[]
    >`
      select e.token_address as token, e.wallet_address as wallet, e.type, e.direction, e.amount_usd as usd,
             e.price_usd as price,
             extract(epoch from e.timestamp)::float8 as at
        from events e order by e.id`;
    const swaps = events.filter((e) => e.type === "swap");
    const metrics = await sql<Record<string, number | string | null>[]>`
      select m.address, m.price_usd, m.fdv_usd, m.volume_24h_usd, m.volume_1h_usd, m.buys_24h, m.sells_24h,
             m.makers_24h, m.price_change_5m_pct, m.price_change_1h_pct, m.price_change_24h_pct,
             (t.total_supply / power(10::numeric, t.decimals))::float8 as supply
        from token_metrics m join tokens t on t.address = m.address`;
    // The windows start strictly after head - w: the first block newer than that time.
    const inWindow = (w: number) => swaps.filter((s) => s.at > head - w);
    let changed = 0;
    for (const m of metrics) {
      // Each pool event's price by the pricing rule, against the price now: from the last one before
      // the window when the token had a price then, else from its first price inside the window.
      const priced = events.filter((e) => e.token === m.address && e.price !== null) as {
        at: number;
        price: number;
      }[];
      const last = Number(m.price_usd);
      const change = (w: number) => {
        const before = priced.filter((p) => p.at <= head - w).at(-1);
        const start = before?.price ? before : priced.find((p) => p.at > head - w && p.price > 0);
        return start && last ? (last / start.price - 1) * 100 : null;
      };
      const day = inWindow(86_400).filter((s) => s.token === m.address);
      const expected = {
        volume_24h_usd: day.reduce((a, s) => a + s.usd, 0),
        volume_1h_usd: inWindow(3_600)
          .filter((s) => s.token === m.address)
          .reduce((a, s) => a + s.usd, 0),
        buys_24h: day.filter((s) => s.direction === "buy").length,
        sells_24h: day.filter((s) => s.direction === "sell").length,
        makers_24h: new Set(day.map((s) => s.wallet)).size,
        price_change_5m_pct: change(300),
        price_change_1h_pct: change(3_600),
        price_change_24h_pct: change(86_400),
        fdv_usd: Number(m.price_usd) * Number(m.supply),
      };
      for (const [field, value] of Object.entries(expected)) {
        if (value === null) expect([m.address, field, m[field]]).toEqual([m.address, field, null]);
        else expect(Number(m[field]), `${m.address} ${field}`).toBeCloseTo(value, 6);
      }
      if (expected.price_change_5m_pct !== null && expected.price_change_5m_pct !== 0) changed++;
    }
    // The scenario moves prices inside the last five minutes, so the 5 min change is exercised.
    expect(changed).toBeGreaterThan(0);
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

  it("drops a trader's recent flows once its swaps leave the window, and counts the new ones", async () => {
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    await syncToHead(ix);
    expect(await expectRecentFlows()).toBeGreaterThan(0);
    chain.mine(WINDOWS.netActivitySeconds + 60);
    await syncToHead(ix);
    expect(await expectRecentFlows()).toBe(0);
    market.simulate(5);
    await syncToHead(ix);
    expect(await expectRecentFlows()).toBeGreaterThan(0);
  });

  it("the worker refuses a node of another chain than its profile's, saying which", async () => {
    const run = startWorker({
      databaseUrl: db.url,
      rpcUrl: chain.url,
      profile: { ...profile, name: "base", chainId: 8453 },
      pollIntervalMs: 10,
    });
    await expect(run).rejects.toThrow("RPC_URL serves chain id 31337, but CHAIN_PROFILE=base is chain id 8453");
  });
});
