import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { Indexer } from "@/worker/indexer/indexer";
import { Rpc } from "@/worker/indexer/rpc";
import type { ChainProfile } from "@/worker/profiles";
import { createTestDatabase, type TestDatabase } from "./db";
import { addr, FakeChain, ZERO } from "./fake-chain";

/** The sync engine against an in-memory chain: exact state after a scenario, and after reorgs. */
const WETH = addr(0xe1);
const USD = addr(0xe2);
const FACTORY = addr(0xf1);
const LAUNCHPAD = addr(0xf2);
const WETH_USD = addr(0xa0);
const E18 = 10n ** 18n;

const profile: ChainProfile = {
  name: "fake",
  chainId: 31337,
  startBlock: 1,
  finalityDepth: 5,
  weth: WETH,
  stables: [{ address: USD, decimals: 6 }],
  factories: [{ address: FACTORY, name: "FakeSwap" }],
  launchpads: [{ address: LAUNCHPAD, name: "PumpPad" }],
  otherContracts: [],
  minQuoteLiquidityUsd: 100,
  scanAllBlocks: true,
  initialBlockRange: 7,
  addressChunkSize: 3,
};

type Market = { token: string; pair: string; r: [bigint, bigint] };

/** A deterministic market: launches, buys, sells, transfers; token is token0, WETH token1. */
function trade(chain: FakeChain, m: Market, trader: string, buy: boolean, amountIn: bigint) {
  const [rt, rw] = m.r;
  if (buy) {
    const out = (amountIn * rt) / (rw + amountIn) / 2n;
    chain.tx(trader, null, amountIn).transfer(m.token, m.pair, trader, out);
    m.r = [rt - out, rw + amountIn];
    chain.sync(m.pair, ...m.r).swap(m.pair, 0n, amountIn, out, 0n, trader, trader);
  } else {
    const out = (amountIn * rw) / (rt + amountIn) / 2n;
    chain.tx(trader).transfer(m.token, trader, m.pair, amountIn);
    m.r = [rt + amountIn, rw - out];
    chain.sync(m.pair, ...m.r).swap(m.pair, amountIn, 0n, 0n, out, trader, trader);
  }
}

function launch(chain: FakeChain, i: number, creator: string): Market {
  const token = addr(0x1000 + i);
  const pair = addr(0x2000 + i);
  const supply = 1_000_000n * E18;
  chain
    .tx(creator)
    .pairCreated(FACTORY, token, WETH, pair)
    .transfer(token, ZERO, LAUNCHPAD, supply)
    .transfer(token, LAUNCHPAD, pair, supply / 2n)
    .transfer(token, LAUNCHPAD, creator, supply / 10n)
    .sync(pair, supply / 2n, 10n * E18)
    .mint(pair, LAUNCHPAD, supply / 2n, 10n * E18)
    .launched(LAUNCHPAD, token, pair, creator, `Pepe Moon ${i}`, `PM${i}`, supply);
  return { token, pair, r: [supply / 2n, 10n * E18] };
}

let db: TestDatabase;
let sql: Sql;
const chain = new FakeChain();
const markets: Market[] = [];
let seed = 7;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), Math.floor((seed / 2 ** 31) * n));

function simulate(blocks: number) {
  for (let b = 0; b < blocks; b++) {
    if (rand(4) === 0 && markets.length < 6) markets.push(launch(chain, markets.length, addr(0x500 + markets.length)));
    for (let t = 0; t < 3 && markets.length > 0; t++) {
      const m = markets[rand(markets.length)];
      const trader = addr(0x900 + rand(12));
      const held = chain.balances.get(`${m.token}:${trader}`) ?? 0n;
      if (held > 0n && rand(2) === 0) trade(chain, m, trader, false, held / 2n);
      else if (held > 0n && rand(5) === 0) chain.tx(trader).transfer(m.token, trader, addr(0x900 + rand(12)), held / 3n);
      else trade(chain, m, trader, true, BigInt(1 + rand(5)) * 10n ** 17n);
    }
    if (rand(6) === 0) chain.tx(addr(0x77), addr(0x900 + rand(12)), 10n ** 16n);
    chain.mine();
  }
}

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
  const onChain = new Map([...chain.balances].filter(([, v]) => v !== 0n));
  expect(indexed).toEqual(onChain);
  const pools = await sql<{ address: string; reserve0: string; reserve1: string }[]>`select address, reserve0::text, reserve1::text from pools`;
  for (const p of pools) expect([BigInt(p.reserve0), BigInt(p.reserve1)]).toEqual(chain.reserves.get(p.address));
  const events = await sql<{ n: number }[]>`select count(*)::int as n from events`;
  const [{ count }] = await sql<{ count: string }[]>`select count::text from event_counts where scope = 'all'`;
  expect(Number(count)).toBe(events[0].n);
}

describe("sync engine (fake chain)", { timeout: 120_000 }, () => {
  let rpc: Rpc;
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    await chain.listen();
    rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
    chain.tx(addr(0x1)).pairCreated(FACTORY, WETH, USD, WETH_USD).sync(WETH_USD, 100n * E18, 300_000n * 10n ** 6n).mint(WETH_USD, addr(1), 100n * E18, 300_000n * 10n ** 6n);
    chain.mine();
    simulate(60);
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
    const [m] = await sql<{ n: number; priced: number }[]>`select count(*)::int as n, count(*) filter (where price_usd > 0)::int as priced from token_metrics`;
    expect(m.n).toBe(markets.length);
    expect(m.priced).toBe(markets.length);
    const [w] = await sql<{ n: number }[]>`select count(*)::int as n from wallets where trade_count > 0`;
    expect(w.n).toBeGreaterThan(5);
  });

  it("rolls back reorgs of 1 to 20 blocks to the canonical chain", async () => {
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    for (const depth of [1, 3, 7, 20]) {
      simulate(depth + 25);
      await syncToHead(ix);
      // Replay the balances of the surviving chain: the fake keeps totals, so rebuild them.
      chain.reorg(depth);
      rebuildTotals();
      simulate(depth + 2);
      await syncToHead(ix);
      await expectChainState();
    }
  });
});

/** Recomputes the fake chain's balances and reserves from its surviving blocks' logs. */
function rebuildTotals() {
  chain.balances.clear();
  chain.reserves.clear();
  markets.length = 0;
  const known = new Map<string, Market>();
  for (const b of chain.blocks) {
    for (const l of b.logs) {
      const t0 = l.topics[0];
      const data = l.data.slice(2);
      const w = (i: number) => BigInt(`0x${data.slice(i * 64, (i + 1) * 64)}`);
      if (l.topics.length === 3 && t0 === "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef") {
        const from = `0x${l.topics[1].slice(26)}`;
        const to = `0x${l.topics[2].slice(26)}`;
        const k = (h: string) => `${l.address}:${h}`;
        if (from !== ZERO) chain.balances.set(k(from), (chain.balances.get(k(from)) ?? 0n) - w(0));
        if (to !== ZERO) chain.balances.set(k(to), (chain.balances.get(k(to)) ?? 0n) + w(0));
      } else if (l.topics.length === 1 && data.length === 128) {
        chain.reserves.set(l.address, [w(0), w(1)]);
        const m = known.get(l.address) ?? { token: "", pair: l.address, r: [0n, 0n] as [bigint, bigint] };
        m.r = [w(0), w(1)];
        known.set(l.address, m);
      } else if (l.topics.length === 3 && l.address === FACTORY) {
        const token = `0x${l.topics[1].slice(26)}`;
        const pair = `0x${data.slice(24, 64)}`;
        if (token !== WETH) known.set(pair, { token, pair, r: [0n, 0n] });
      }
    }
  }
  for (const m of known.values()) if (m.token) markets.push({ ...m, r: chain.reserves.get(m.pair)! });
}
