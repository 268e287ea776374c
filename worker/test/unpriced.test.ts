import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { holderListRead } from "@/lib/queries/holders";
import { tokenOhlcv } from "@/lib/queries/ohlcv";
import { runRead } from "@/lib/queries/read";
import { getTokenProfile } from "@/lib/queries/tokens";
import { Indexer } from "@/worker/indexer/indexer";
import { Rpc } from "@/worker/indexer/rpc";
import { createTestDatabase, type TestDatabase } from "./db";
import { addr, FakeChain, ZERO } from "./fake-chain";
import { fakeProfile } from "./fake-market";

/**
 * One story per token: the price by the pricing rule (deepest quote pool holding the profile's
 * minimum) is the one every figure reads. While the pool is deep, the chart's last close is the
 * header price, and market cap, FDV and holders' values are that price times their amounts; once
 * its creator pulls the liquidity (a dust trade after), price, market cap, FDV and holders' values
 * are 0, the changes null, the chart closes at 0, and trending does not promote it.
 */
const E18 = 10n ** 18n;
const profile = fakeProfile;
const [WETH, USD] = [profile.weth, profile.quoteTokens[1].address];
const [FACTORY, LAUNCHPAD] = [profile.factories[0].address, profile.launchpads[0].address];
const [TOKEN, PAIR, CREATOR] = [addr(0x1000), addr(0x2000), addr(0x500)];
const SUPPLY = 1_000_000n * E18;

const chain = new FakeChain();
let db: TestDatabase;
let sql: Sql;
let read: Db;
let ix: Indexer;
let reserves: [bigint, bigint];

/** A buy of `weth` worth of the token (token0 of its pair, WETH token1) by `trader`. */
function buy(trader: string, weth: bigint) {
  const out = (weth * reserves[0]) / (reserves[1] + weth) / 2n;
  reserves = [reserves[0] - out, reserves[1] + weth];
  chain
    .tx(trader, null, weth)
    .transfer(TOKEN, PAIR, trader, out)
    .sync(PAIR, ...reserves)
    .swap(PAIR, 0n, weth, out, 0n, trader, trader);
}

async function syncToHead() {
  for (let i = 0; i < 100; i++) if ((await ix.cycle()).step === "idle") return;
  throw new Error("did not catch up");
}

async function story() {
  const now = new Date(chain.blocks.at(-1)!.timestamp * 1000);
  const token = (await getTokenProfile(read, TOKEN, now))!;
  const candles = (await tokenOhlcv(read, TOKEN, { interval: "1m", page: 1, limit: 500 }))!.data;
  const holders = (await runRead(read, holderListRead(TOKEN, { page: 1, limit: 50 })))!.data;
  const [{ trending }] = await sql<
    { trending: number }[]
  >`select trending_score as trending from token_metrics where address = ${TOKEN}`;
  return { token, lastClose: candles.at(-1)!.close, holders, trending };
}

describe("a token's price, market cap, changes, candles and holders' values tell one story", {
  timeout: 120_000,
}, () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    read = createDb(sql);
    await chain.listen();
    chain
      .tx(addr(1))
      .pairCreated(FACTORY, WETH, USD, addr(0xa0))
      .sync(addr(0xa0), 100n * E18, 300_000n * 10n ** 6n);
    chain.mine();
    reserves = [SUPPLY / 2n, 10n * E18];
    chain
      .tx(CREATOR)
      .pairCreated(FACTORY, TOKEN, WETH, PAIR)
      .transfer(TOKEN, ZERO, LAUNCHPAD, SUPPLY)
      .transfer(TOKEN, LAUNCHPAD, PAIR, SUPPLY / 2n)
      .transfer(TOKEN, LAUNCHPAD, CREATOR, SUPPLY / 10n)
      .sync(PAIR, ...reserves)
      .mint(PAIR, LAUNCHPAD, ...reserves)
      .launched(LAUNCHPAD, TOKEN, PAIR, CREATOR, "Rug Frog", "RUGF", SUPPLY);
    chain.mine();
    for (let i = 0; i < 6; i++) {
      buy(addr(0x900 + i), 5n * 10n ** 17n);
      chain.mine();
    }
    ix = await Indexer.create({
      sql,
      rpc: new Rpc({ url: chain.url, addressChunkSize: 3 }),
      profile,
      fullRefreshIntervalMs: 0,
    });
    await syncToHead();
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await chain.close();
    await db?.drop();
  });

  it("while the pool is deep: the chart's last close is the header price, and prices every value", async () => {
    const { token, lastClose, holders, trending } = await story();
    expect(trending).toBeGreaterThan(0);
    // The pair's WETH at $3,000 over its token reserve.
    expect(token.price_usd).toBeCloseTo((Number(reserves[1]) * 3000) / Number(reserves[0]), 12);
    expect(lastClose).toBe(token.price_usd);
    expect(token.market_cap_usd).toBeCloseTo(token.price_usd * 1_000_000, 1);
    expect(token.fdv_usd).toBe(token.market_cap_usd);
    expect(token.price_change_24h_pct).toBeGreaterThan(0);
    for (const h of holders) expect(h.value_usd).toBeCloseTo(h.quantity * token.price_usd, 1);
  });

  it("after its creator pulls the liquidity: no price, cap, FDV, change, holder value; chart closes at 0", async () => {
    // The creator takes all but 0.005 WETH ($15, under the profile's $100 minimum) out of the pool…
    const left: [bigint, bigint] = [reserves[0] / 2_000n, 5n * 10n ** 15n];
    const taken: [bigint, bigint] = [reserves[0] - left[0], reserves[1] - left[1]];
    reserves = left;
    chain
      .tx(CREATOR)
      .transfer(TOKEN, PAIR, CREATOR, taken[0])
      .sync(PAIR, ...reserves)
      .burn(PAIR, CREATOR, ...taken, CREATOR);
    chain.mine();
    // …and someone still trades in the dust pool.
    buy(addr(0x9ff), 10n ** 15n);
    chain.mine();
    await syncToHead();

    const { token, lastClose, holders, trending } = await story();
    expect(trending, "a token without a price is not promoted").toBe(0);
    expect(token.liquidity_usd).toBeGreaterThan(0);
    expect(token.liquidity_usd).toBeLessThan(profile.minQuoteLiquidityUsd * 2);
    expect(token).toMatchObject({ price_usd: 0, market_cap_usd: 0, fdv_usd: 0 });
    expect([token.price_change_5m_pct, token.price_change_1h_pct, token.price_change_24h_pct]).toEqual([
      null,
      null,
      null,
    ]);
    expect(lastClose).toBe(0);
    expect(holders.length).toBeGreaterThan(0);
    for (const h of holders) {
      expect(h.quantity).toBeGreaterThan(0);
      expect(h.value_usd).toBe(0);
    }
  });
});
