import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { wethUsd } from "@/worker/derive/prices";
import { Indexer } from "@/worker/indexer/indexer";
import { ChainState } from "@/worker/indexer/state";
import { expectIndexedEqualsChain, expectV3EqualsChain } from "./chain-state";
import { spawnWorker, stopWorker } from "./child";
import { createTestDatabase, type TestDatabase } from "./db";
import { dumpChainTables, dumpDifferences, saveDumpIfAsked } from "./dump";
import { startFaultyProxy } from "./faulty-proxy";
import { V3Market } from "./v3-market";

/**
 * The indexer on Uniswap V3 (the official contracts on the dev chain, beside V2): pools, prices
 * and positions equal the chain after a simulated history, after reorgs and after kill -9 during
 * a sync; a V3 price (the token's and the pool's own) equals QuoterV2's quote.
 */
let market: V3Market;
let db: TestDatabase;
let sql: Sql;
let ix: Indexer;
const dbs: TestDatabase[] = [];

async function syncToHead() {
  for (let i = 0; i < 200; i++) if ((await ix.cycle()).step === "idle") return;
  throw new Error("did not catch up");
}

describe("indexer on Uniswap V3 (dev chain)", { timeout: 300_000 }, () => {
  beforeAll(async () => {
    market = await V3Market.start(4);
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    await market.simulate(60);
    ix = await Indexer.create({ sql, rpc: market.v2.rpc, profile: market.profile, fullRefreshIntervalMs: 0 });
  }, 300_000);
  afterAll(async () => {
    await sql?.end();
    await market?.stop();
    await db?.drop();
    for (const d of dbs) await d.drop();
  });

  it("after a history equals slot0, liquidity, pools' token balances, positions and holders' balanceOf", async () => {
    await syncToHead();
    const v3 = await expectV3EqualsChain(sql, market);
    // The dev chain's own V3 pools (its deployment's) are indexed beside the market's.
    const indexed = await sql<{ address: string }[]>`select address from pools where protocol = 'uniswap-v3'`;
    expect(indexed.map((p) => p.address)).toEqual(expect.arrayContaining(market.pools.map((p) => p.pool)));
    expect(v3.pools).toBe(indexed.length);
    expect(v3.positions).toBe(market.positionIds.length + market.deployedPositions);
    await expectIndexedEqualsChain(sql, market.v2);
    const [e] = await sql<{ swaps: number; adds: number; removes: number }[]>`
      select count(*) filter (where e.type = 'swap')::int as swaps,
             count(*) filter (where e.type = 'liquidity_add')::int as adds,
             count(*) filter (where e.type = 'liquidity_remove')::int as removes
        from events e join pools p on p.address = e.pool_address where p.protocol = 'uniswap-v3'`;
    expect(e.swaps).toBeGreaterThan(20);
    expect(e.adds).toBe(market.positionIds.length);
    expect(e.removes).toBeGreaterThan(0);
    // Neither the pools nor the position manager are holders.
    const [h] = await sql<{ wrong: number }[]>`
      select count(*)::int as wrong from token_metrics m
       where m.holder_count <> (select count(*) from balances b where b.token_address = m.address and b.amount > 0
                                   and b.holder not in (select address from pools)
                                   and b.holder <> ${market.v3.positions}
                                   and b.holder not in ('0x0000000000000000000000000000000000000000',
                                                        '0x000000000000000000000000000000000000dead'))`;
    expect(h.wrong).toBe(0);
    await saveDumpIfAsked("v3-head", db.url);
  });

  it("finds the funders of wallets paid in WETH, not ether", async () => {
    await syncToHead();
    expect(market.wethFunded.length).toBeGreaterThan(2);
    const rows = await sql<{ address: string; funder: string | null; asset: string | null }[]>`
      select w.address, w.funder, f.asset from wallets w left join wallet_funding f on f.wallet = w.address
       where w.address = any(${market.wethFunded.map((f) => f.wallet)}) order by w.address`;
    expect(rows).toEqual(
      [...market.wethFunded]
        .sort((a, b) => (a.wallet < b.wallet ? -1 : 1))
        .map((f) => ({ address: f.wallet, funder: f.funder, asset: market.v2.deployment.weth })),
    );
  });

  it("prices a V3 token as QuoterV2 quotes it, within rounding", async () => {
    await syncToHead();
    const weth = market.v2.deployment.weth;
    // The WETH leg is the V2 rule's (tested on its own); what is compared here is the V3 leg, the token's price in
    // WETH.
    const weth_usd = wethUsd(await ChainState.load(sql, market.profile));
    let priced = 0;
    for (const { token, pool } of market.pools) {
      const [m] = await sql<
        { price_usd: number; priced_pool: string | null; pool_price_usd: number | null; quote_usd: number }[]
      >`
        select m.price_usd, m.priced_pool, p.price_usd as pool_price_usd,
               (case when p.token0 = ${weth} then p.reserve0 else p.reserve1 end)::float8 / 1e18 * ${weth_usd}
                 as quote_usd
          from token_metrics m join pools p on p.address = ${pool} where m.address = ${token}`;
      // The dust rule holds on V3 too: a pool with less quote liquidity than the profile's minimum prices nothing.
      if (m.quote_usd < market.profile.minQuoteLiquidityUsd) {
        expect(m).toMatchObject({ price_usd: 0, priced_pool: null });
        continue;
      }
      expect(m.priced_pool).toBe(pool);
      // A tiny trade moves the price by nothing measurable; the fee is taken from the amount in.
      const amountIn = 10n ** 9n;
      const out = await market.quote(weth, token, amountIn);
      const quoted = ((Number(amountIn) * (1 - V3Market.FEE / 1e6)) / Number(out)) * weth_usd;
      expect(Math.abs(m.price_usd / quoted - 1)).toBeLessThan(1e-6);
      // The pool's own price (GET /v1/tokens/{address}/pools) is the same marginal price.
      expect(Math.abs(m.pool_price_usd! / quoted - 1)).toBeLessThan(1e-6);
      priced++;
    }
    expect(priced).toBeGreaterThan(0);
  });

  it("reorgs of 1 to 20 blocks leave pools, positions and balances equal to the canonical chain", async () => {
    await syncToHead();
    for (const [depth, branch] of [
      [1, 2],
      [6, 4],
      [20, 21],
    ]) {
      const revert = await market.snapshot();
      await market.simulate(depth, 2);
      await syncToHead();
      await revert();
      await market.simulate(branch, 2);
      await syncToHead();
      await expectV3EqualsChain(sql, market);
      await expectIndexedEqualsChain(sql, market.v2);
    }
  });

  it("kill -9 during a sync ends identical to an undisturbed run", async () => {
    const clean = await createTestDatabase();
    dbs.push(clean);
    const w = spawnWorker(clean.url, market.v2.chain.rpcUrl, market.profile);
    await w.caughtUp;
    await stopWorker(w);
    const reference = await dumpChainTables(clean.url);

    const proxy = await startFaultyProxy(market.v2.chain.rpcUrl, {
      errorRate: 0,
      hangRate: 0,
      maxLogRange: 5,
      latencyMs: 10,
    });
    const killed = await createTestDatabase();
    dbs.push(killed);
    let kills = 0;
    for (let round = 0; round < 20 && kills < 5; round++) {
      const run = spawnWorker(killed.url, proxy.url, market.profile);
      await run.active;
      const done = await Promise.race([
        run.caughtUp.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 200 + round * 97)),
      ]);
      run.proc.kill("SIGKILL");
      await run.exited;
      if (done) break;
      kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(3);
    const last = spawnWorker(killed.url, proxy.url, market.profile);
    await last.caughtUp;
    await stopWorker(last);
    await proxy.close();
    expect(dumpDifferences(await dumpChainTables(killed.url), reference)).toEqual([]);
  });
});
