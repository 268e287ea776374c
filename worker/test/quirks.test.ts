import { type Abi, decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Sql } from "@/db/client";
import { type Artifacts, loadArtifacts } from "@/devchain/compile";
import { FEE_WALLET } from "@/devchain/deploy";
import { listPositions } from "@/lib/queries/positions";
import { Indexer } from "@/worker/indexer/indexer";
import { toHex } from "@/worker/indexer/rpc";
import { expectIndexedEqualsChain } from "./chain-state";
import { createTestDatabase, type TestDatabase } from "./db";
import { DevchainMarket } from "./devchain-market";

/**
 * Real token quirks on the dev chain, in pools of the official Uniswap V2 and V3 contracts that
 * the factories and the position manager created (no launchpad): the V2 periphery's
 * DeflatingERC20 (1% of every transfer burnt), WalletFeeToken (3% of every transfer paid to a
 * marketing wallet), a token with bytes32 name and symbol, and one without decimals(), each
 * against WETH and the 6- and 18-decimals dollars. Wallets buy, sell and
 * transfer them (the fee-on-transfer token through Router02's supporting-fee functions); then the
 * real indexer runs and everything is compared with the chain: balances with balanceOf, prices
 * with reserves, slot0 and QuoterV2, and each wallet's books with a hand computation from its
 * balance changes on chain.
 */

const E18 = 10n ** 18n;
const DEADLINE = 2n ** 40n;
const MAX = 2n ** 255n;
const FEE = 3000;
const FULL_RANGE = 887_220;
const ZERO = "0x0000000000000000000000000000000000000000";
const NO_CODE = "0x00000000000000000000000000000000c0ffee00";

let market: DevchainMarket;
let art: Artifacts;
let db: TestDatabase;
let sql: Sql;
let ix: Indexer;
let indexed: number;

async function send(from: string, to: string, data: Hex, value = 0n): Promise<Hex> {
  return market.rpc.call<Hex>("eth_sendTransaction", [
    { from, to, data, value: `0x${value.toString(16)}`, gas: toHex(9_000_000), gasPrice: "0x0" },
  ]);
}

/** Mines the transactions sent since the last block; each must succeed. Returns the block. */
async function mine(...sent: Promise<Hex>[]): Promise<number> {
  const hashes = await Promise.all(sent);
  await market.mine();
  for (const h of hashes) {
    const r = await market.rpc.call<{ status: Hex }>("eth_getTransactionReceipt", [h]);
    if (r.status !== "0x1") throw new Error(`transaction ${h} failed`);
  }
  return market.head();
}

const data = (name: keyof Artifacts | "erc20", functionName: string, args: unknown[] = []): Hex =>
  encodeFunctionData({ abi: (name === "erc20" ? erc20Abi : art[name].abi) as Abi, functionName, args } as never);

async function read<T>(
  to: string,
  name: keyof Artifacts | "erc20",
  functionName: string,
  args: unknown[],
  block: number | "latest" = "latest",
): Promise<T> {
  const abi = (name === "erc20" ? erc20Abi : art[name].abi) as Abi;
  const out = await market.rpc.call<Hex>("eth_call", [
    { to, data: data(name, functionName, args) },
    typeof block === "number" ? toHex(block) : block,
  ]);
  return decodeFunctionResult({ abi, functionName, data: out } as never) as T;
}

const ethBalance = async (who: string, block: number) =>
  BigInt(await market.rpc.call<Hex>("eth_getBalance", [who, toHex(block)]));

/** decimals() as the chain answers it; null when the token has none. */
async function chainDecimals(token: string): Promise<number | null> {
  try {
    return Number(await read<number>(token, "erc20", "decimals", []));
  } catch {
    return null;
  }
}

/** The quirk tokens and the dev chain's quote tokens. */
let q: { dtt: string; b32: string; nodec: string; wft: string; weth: string; dusd: string; ddai: string };

/** The pools of the quirk tokens, as the test created them (or the deployment did). */
const pools: { token: string; quote: string; pool: string; v3: boolean }[] = [];

/**
 * Liquidity in the V2 pair of token and quote, created by the router when there is none (the deployment made three).
 */
async function v2Pool(token: string, quote: string, tokens: bigint, quotes: bigint) {
  const d = market.deployment;
  await mine(
    send(
      d.deployer,
      d.uniswapV2.router,
      data("UniswapV2Router02", "addLiquidity", [token, quote, tokens, quotes, 0n, 0n, d.deployer, DEADLINE]),
    ),
  );
  const pool = (await read<string>(d.uniswapV2.factory, "UniswapV2Factory", "getPair", [token, quote])).toLowerCase();
  pools.push({ token, quote, pool, v3: false });
}

async function v3Pool(token: string, quote: string, tokens: bigint, quotes: bigint) {
  const d = market.deployment;
  const [token0, token1] = token < quote ? [token, quote] : [quote, token];
  const [amount0, amount1] = token0 === token ? [tokens, quotes] : [quotes, tokens];
  const npm = d.uniswapV3.positionManager;
  await mine(
    send(
      d.deployer,
      npm,
      data("NonfungiblePositionManager", "createAndInitializePoolIfNecessary", [
        token0,
        token1,
        FEE,
        isqrt((amount1 << 192n) / amount0),
      ]),
    ),
  );
  const mint = {
    token0,
    token1,
    fee: FEE,
    tickLower: -FULL_RANGE,
    tickUpper: FULL_RANGE,
    amount0Desired: amount0,
    amount1Desired: amount1,
    amount0Min: 0n,
    amount1Min: 0n,
    recipient: d.deployer,
    deadline: DEADLINE,
  };
  await mine(send(d.deployer, npm, data("NonfungiblePositionManager", "mint", [mint])));
  const pool = (
    await read<string>(d.uniswapV3.factory, "UniswapV3Factory", "getPool", [token0, token1, FEE])
  ).toLowerCase();
  pools.push({ token, quote, pool, v3: true });
}

function isqrt(y: bigint): bigint {
  if (y < 4n) return y === 0n ? 0n : 1n;
  let z = y;
  let x = y / 2n + 1n;
  while (x < z) [z, x] = [x, (y / x + x) / 2n];
  return z;
}

/** Units of `quote` worth 1 USD at the seeded prices (3,000 USD per WETH). */
const perDollar = (quote: string) => (quote === q.dusd ? 10n ** 6n : quote === q.weth ? E18 / 3000n : E18);

// ---- What the chain says, computed here, not by the indexer. ----

/** Raw balances of a pool: its balanceOf of each side. */
const poolBalances = async (p: { token: string; quote: string; pool: string }, block: number) => ({
  token: await market.balanceOf(p.token, p.pool, block),
  quote: await market.balanceOf(p.quote, p.pool, block),
});

/** Decimals as the chain has them; 18 for the token without decimals() (its supply is 10,000,000 x 10^18). */
const decimalsRead = new Map<string, Promise<number>>();
const decimals = (token: string) => {
  if (!decimalsRead.has(token))
    decimalsRead.set(
      token,
      chainDecimals(token).then((d) => d ?? 18),
    );
  return decimalsRead.get(token)!;
};

/** Marginal price of a pool's token in its quote, from getReserves (V2) or slot0 (V3) with both decimals. */
async function marginalPrice(
  p: { token: string; quote: string; pool: string; v3: boolean },
  block: number,
): Promise<number> {
  const [dt, dq] = [await decimals(p.token), await decimals(p.quote)];
  if (p.v3) {
    const [sqrtPriceX96] = await read<[bigint]>(p.pool, "UniswapV3Pool", "slot0", [], block);
    const raw1Per0 = (Number(sqrtPriceX96) / 2 ** 96) ** 2;
    const tokenIs0 = p.token < p.quote;
    const raw = tokenIs0 ? raw1Per0 : 1 / raw1Per0;
    return raw * 10 ** (dt - dq);
  }
  const [r0, r1] = await market.reserves(p.pool, block);
  const [rt, rq] = p.token < p.quote ? [r0, r1] : [r1, r0];
  return Number(rq) / 10 ** dq / (Number(rt) / 10 ** dt);
}

/** USD per WETH at `block`: the WETH/stablecoin pools of the deployment, each weighing with its stablecoin side. */
async function wethUsd(block: number): Promise<number> {
  const d = market.deployment;
  let dollars = 0;
  let eth = 0;
  for (const [stable, v3] of [
    [q.dusd, false],
    [q.ddai, false],
    [q.dusd, true],
  ] as const) {
    const pool = v3
      ? (await read<string>(d.uniswapV3.factory, "UniswapV3Factory", "getPool", [q.weth, stable, 500])).toLowerCase()
      : (await read<string>(d.uniswapV2.factory, "UniswapV2Factory", "getPair", [q.weth, stable])).toLowerCase();
    const side = Number(await market.balanceOf(stable, pool, block)) / 10 ** (await decimals(stable));
    const price = await marginalPrice({ token: q.weth, quote: stable, pool, v3 }, block);
    dollars += side;
    eth += side / price;
  }
  return dollars / eth;
}

const usdPer = async (quote: string, block: number) => (quote === q.weth ? wethUsd(block) : 1);

// ---- The trades, and the books a hand keeps of them. ----

type Books = { quantity: bigint; cost: number; realized: number };
const books = new Map<string, Books>();
const book = (wallet: string, token: string) => {
  const k = `${wallet}:${token}`;
  if (!books.has(k)) books.set(k, { quantity: 0n, cost: 0, realized: 0 });
  return books.get(k)!;
};

/**
 * One trade of `wallet` in `token` against `quote`, mined alone; the books move by what the chain
 * shows moved: the wallet's token balance (a fee-on-transfer token's fee included) and its quote
 * balance (ether for the router's ETH functions: gas is free, so the balance moves by the swap alone).
 */
async function trade(wallet: string, token: string, quote: string, tx: () => Promise<Hex>, viaEth = false) {
  const before = await market.head();
  const quoteBalance = (b: number) => (viaEth ? ethBalance(wallet, b) : market.balanceOf(quote, wallet, b));
  const [t0, q0] = [await market.balanceOf(token, wallet, before), await quoteBalance(before)];
  const block = await mine(tx());
  const [t1, q1] = [await market.balanceOf(token, wallet, block), await quoteBalance(block)];
  const usd = (Number(q1 > q0 ? q1 - q0 : q0 - q1) / 10 ** (await decimals(quote))) * (await usdPer(quote, block));
  const b = book(wallet, token);
  if (t1 > t0) {
    b.quantity += t1 - t0;
    b.cost += usd;
  } else {
    const share = (b.cost * Number(t0 - t1)) / Number(b.quantity);
    b.realized += usd - share;
    b.cost -= share;
    b.quantity -= t0 - t1;
  }
}

/**
 * A plain transfer: the sender's cost basis leaves with what left its balance; the receiver's tokens are of unknown
 * cost.
 */
async function transfer(from: string, to: string, token: string, amount: bigint) {
  const before = await market.head();
  const t0 = await market.balanceOf(token, from, before);
  const block = await mine(send(from, token, data("erc20", "transfer", [to, amount])));
  const t1 = await market.balanceOf(token, from, block);
  const b = book(from, token);
  b.cost -= (b.cost * Number(t0 - t1)) / Number(b.quantity);
  b.quantity -= t0 - t1;
}

const v2Swap =
  (wallet: string, fn: string, args: unknown[], value = 0n) =>
  () =>
    send(wallet, market.deployment.uniswapV2.router, data("UniswapV2Router02", fn, args), value);

const v3Swap = (wallet: string, tokenIn: string, tokenOut: string, amountIn: bigint) => () =>
  send(
    wallet,
    market.deployment.uniswapV3.swapRouter,
    data("SwapRouter", "exactInputSingle", [
      {
        tokenIn,
        tokenOut,
        fee: FEE,
        recipient: wallet,
        deadline: DEADLINE,
        amountIn,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ]),
  );

let traders: { fot: string; b32: string; nodec: string; wft: string; receiver: string };

async function scenario() {
  const d = market.deployment;
  const [dtt, b32, nodec, wft] = d.quirkTokens.map((t) => t.address.toLowerCase());
  q = { dtt, b32, nodec, wft, weth: d.weth, dusd: d.quoteTokens[1].address, ddai: d.quoteTokens[2].address };
  expect(d.quoteTokens.map((t) => t.decimals)).toEqual([18, 6, 18]);

  // Every quirk token against every quote token on V2 (0.9 USD a token), and the two that V3 can hold (a
  // fee-on-transfer token cannot be added to a V3 pool: the pool checks it received the whole amount) on V3 too; the
  // wallet-fee token's owner pays no fee, so it adds one V3 pool, which then sells (a buy's fee leaves the pool's side,
  // a sell's would revert). The deployer holds what is left of the deployment's tokens and has approved both the router
  // and the position manager.
  const deployer = d.deployer;
  for (const token of [dtt, b32, nodec, wft]) {
    for (const quote of [q.weth, q.dusd, q.ddai])
      await v2Pool(token, quote, 100_000n * E18, 90_000n * perDollar(quote));
  }
  for (const token of [b32, nodec]) {
    for (const quote of [q.weth, q.dusd, q.ddai]) await v3Pool(token, quote, 50_000n * E18, 45_000n * perDollar(quote));
  }
  await v3Pool(wft, q.dusd, 50_000n * E18, 45_000n * perDollar(q.dusd));
  expect(pools.length).toBe(19);
  // A pair for an address with no contract (anyone can create one, for a future token too): no token.
  await mine(send(deployer, d.uniswapV2.factory, data("UniswapV2Factory", "createPair", [NO_CODE, q.weth])));

  // Traders, with dollars and approvals of both routers.
  const [fot, b32Trader, nodecTrader, receiver, wftTrader] = market.accounts.slice(1, 6);
  traders = { fot, b32: b32Trader, nodec: nodecTrader, wft: wftTrader, receiver };
  for (const w of [fot, b32Trader, nodecTrader, wftTrader]) {
    await mine(
      ...[q.dusd, q.ddai].map((s) => send(deployer, s, data("USD", "mint", [w, 100_000n * perDollar(s)]))),
      ...[dtt, b32, nodec, wft, q.dusd, q.ddai].flatMap((t) => [
        send(w, t, data("erc20", "approve", [d.uniswapV2.router, MAX])),
        send(w, t, data("erc20", "approve", [d.uniswapV3.swapRouter, MAX])),
      ]),
    );
  }

  // The fee-on-transfer token through Router02's supporting-fee functions, quoted in ether, 6- and 18-decimals dollars.
  const held = async (w: string, t: string) => market.balanceOf(t, w, await market.head());
  /**
   * Sells 1/`part` of what `w` holds of fee-taking token `t` on V2 through Router02's supporting-fee functions, for
   * ether when `quote` is WETH.
   */
  const sellPart = async (w: string, t: string, quote: string, part: bigint) => {
    const viaEth = quote === q.weth;
    const fn = viaEth
      ? "swapExactTokensForETHSupportingFeeOnTransferTokens"
      : "swapExactTokensForTokensSupportingFeeOnTransferTokens";
    await trade(w, t, quote, v2Swap(w, fn, [(await held(w, t)) / part, 0n, [t, quote], w, DEADLINE]), viaEth);
  };
  await trade(
    fot,
    dtt,
    q.weth,
    v2Swap(fot, "swapExactETHForTokensSupportingFeeOnTransferTokens", [0n, [q.weth, dtt], fot, DEADLINE], 2n * E18),
    true,
  );
  await trade(
    fot,
    dtt,
    q.dusd,
    v2Swap(fot, "swapExactTokensForTokensSupportingFeeOnTransferTokens", [
      5_000n * 10n ** 6n,
      0n,
      [q.dusd, dtt],
      fot,
      DEADLINE,
    ]),
  );
  await trade(
    fot,
    dtt,
    q.ddai,
    v2Swap(fot, "swapExactTokensForTokensSupportingFeeOnTransferTokens", [
      3_000n * E18,
      0n,
      [q.ddai, dtt],
      fot,
      DEADLINE,
    ]),
  );
  await transfer(fot, receiver, dtt, 1_000n * E18);
  await sellPart(fot, dtt, q.ddai, 3n);
  await sellPart(fot, dtt, q.weth, 4n);
  await sellPart(fot, dtt, q.dusd, 5n);

  // The wallet-fee token: bought first (its pool's swap shows where its fee goes), on V2 for dollars and ether and on
  // V3; sent on (the fee paid beside no swap is a transfer); sold on V2 for the 18-decimals dollar and for ether.
  await trade(
    wftTrader,
    wft,
    q.dusd,
    v2Swap(wftTrader, "swapExactTokensForTokensSupportingFeeOnTransferTokens", [
      4_000n * 10n ** 6n,
      0n,
      [q.dusd, wft],
      wftTrader,
      DEADLINE,
    ]),
  );
  await trade(
    wftTrader,
    wft,
    q.weth,
    v2Swap(
      wftTrader,
      "swapExactETHForTokensSupportingFeeOnTransferTokens",
      [0n, [q.weth, wft], wftTrader, DEADLINE],
      E18,
    ),
    true,
  );
  await trade(wftTrader, wft, q.dusd, v3Swap(wftTrader, q.dusd, wft, 2_000n * 10n ** 6n));
  await transfer(wftTrader, receiver, wft, 500n * E18);
  await sellPart(wftTrader, wft, q.ddai, 3n);
  await sellPart(wftTrader, wft, q.weth, 4n);

  // The bytes32 token on V3 against the 6-decimals dollar, on V2 against ether, sold on V3 for the 18-decimals dollar.
  await trade(b32Trader, b32, q.dusd, v3Swap(b32Trader, q.dusd, b32, 3_000n * 10n ** 6n));
  await trade(
    b32Trader,
    b32,
    q.weth,
    v2Swap(b32Trader, "swapExactETHForTokens", [0n, [q.weth, b32], b32Trader, DEADLINE], E18),
    true,
  );
  await trade(b32Trader, b32, q.ddai, v3Swap(b32Trader, b32, q.ddai, (await held(b32Trader, b32)) / 2n));
  await transfer(b32Trader, receiver, b32, 100n * E18);
  await trade(
    b32Trader,
    b32,
    q.dusd,
    v2Swap(b32Trader, "swapExactTokensForTokens", [
      (await held(b32Trader, b32)) / 3n,
      0n,
      [b32, q.dusd],
      b32Trader,
      DEADLINE,
    ]),
  );

  // The token without decimals() on V3 against the 18-decimals dollar and ether's pool, sold on V2 for the 6-decimals
  // dollar.
  await trade(nodecTrader, nodec, q.ddai, v3Swap(nodecTrader, q.ddai, nodec, 2_000n * E18));
  await trade(
    nodecTrader,
    nodec,
    q.dusd,
    v2Swap(nodecTrader, "swapExactTokensForTokens", [1_500n * 10n ** 6n, 0n, [q.dusd, nodec], nodecTrader, DEADLINE]),
  );
  await trade(
    nodecTrader,
    nodec,
    q.dusd,
    v2Swap(nodecTrader, "swapExactTokensForTokens", [
      (await held(nodecTrader, nodec)) / 3n,
      0n,
      [nodec, q.dusd],
      nodecTrader,
      DEADLINE,
    ]),
  );
  await trade(nodecTrader, nodec, q.dusd, v3Swap(nodecTrader, nodec, q.dusd, (await held(nodecTrader, nodec)) / 4n));
}

async function syncToHead() {
  for (let i = 0; i < 200; i++) if ((await ix.cycle()).step === "idle") return;
  throw new Error("did not catch up");
}

describe("token quirks in official Uniswap pools (dev chain)", { timeout: 600_000 }, () => {
  beforeAll(async () => {
    market = await DevchainMarket.start(5);
    art = await loadArtifacts();
    // Launchpad tokens trade beside the quirk tokens: the profile finds tokens both ways.
    await market.simulate(2, 2);
    await scenario();
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    ix = await Indexer.create({ sql, rpc: market.rpc, profile: market.profile, fullRefreshIntervalMs: 0 });
    await syncToHead();
    indexed = Number((await sql<{ block: string }[]>`select indexed_block::text as block from sync_state`)[0].block);
  }, 600_000);
  afterAll(async () => {
    await sql?.end();
    await market?.stop();
    await db?.drop();
  });

  it("finds each quirk token through its pools, name and symbol decoded and unknown decimals flagged", async () => {
    const rows = await sql<
      { address: string; name: string; symbol: string; decimals: number; anomalies: string[]; launchpad: string }[]
    >`
      select address, name, symbol, decimals, anomalies, launchpad from tokens
       where address = any(${[q.dtt, q.b32, q.nodec, q.wft]}) order by name`;
    expect(rows.map(({ address: _, ...r }) => r)).toEqual([
      { name: "Bytes Thirty Two", symbol: "B32", decimals: 18, anomalies: [], launchpad: "Uniswap V2" },
      { name: "Deflating Test Token", symbol: "DTT", decimals: 18, anomalies: [], launchpad: "Uniswap V2" },
      {
        name: "No Decimals",
        symbol: "NODEC",
        decimals: 18,
        anomalies: ["decimals_unknown"],
        launchpad: "Uniswap V2",
      },
      { name: "Wallet Fee Token", symbol: "WFT", decimals: 18, anomalies: [], launchpad: "Uniswap V2" },
    ]);
    // Found through a pool: no creator is known, and the token says how it was found.
    const origins = await sql<{ origin: string; creator: string | null }[]>`
      select distinct origin, creator from tokens where address = any(${[q.dtt, q.b32, q.nodec, q.wft]})`;
    expect(origins).toEqual([{ origin: "factory", creator: null }]);
    const [{ none }] = await sql<
      { none: number }[]
    >`select count(*)::int as none from tokens where address = ${NO_CODE}`;
    expect(none).toBe(0);
    // The launchpads' tokens are found from their launches as before.
    const [{ launched }] = await sql<{ launched: number }[]>`select count(*)::int as launched from tokens
       where launchpad in ('PumpPad', 'MoonLaunch') and origin = 'launchpad' and creator is not null`;
    expect(launched).toBe(market.tokens.length);
    const tracked = await sql<
      { address: string }[]
    >`select address from pools where address = any(${pools.map((p) => p.pool)})`;
    expect(tracked.length).toBe(pools.length);
  });

  it("keeps every holder's balance, each pair's reserves and each supply equal to the chain", async () => {
    const checked = await expectIndexedEqualsChain(sql, market);
    expect(checked.tokens).toBeGreaterThanOrEqual(3);
    // The V3 pools' balances too (pools are holders of their tokens in the balance table).
    for (const p of pools.filter((p) => p.v3)) {
      const rows = await sql<
        { reserve0: string; reserve1: string; token0: string }[]
      >`select reserve0::text, reserve1::text, token0 from pools where address = ${p.pool}`;
      const [t0, t1] = p.token < p.quote ? [p.token, p.quote] : [p.quote, p.token];
      expect([rows[0].reserve0, rows[0].reserve1]).toEqual([
        String(await market.balanceOf(t0, p.pool, indexed)),
        String(await market.balanceOf(t1, p.pool, indexed)),
      ]);
    }
    // The fee-on-transfer token's burns are its supply's: what the chain says, with no reconciliation needed (its
    // events are honest).
    const [dtt] = await sql<{ anomalies: string[] }[]>`select anomalies from tokens where address = ${q.dtt}`;
    expect(dtt.anomalies).not.toContain("balance_mismatch");
  });

  it("prices every pool and token from reserves and slot0 with both decimals, as QuoterV2 quotes V3", async () => {
    const weth = await wethUsd(indexed);
    const best = new Map<string, { pool: string; depth: number; usd: number }>();
    for (const p of pools) {
      const usd = (await marginalPrice(p, indexed)) * (p.quote === q.weth ? weth : 1);
      const [row] = await sql<{ price_usd: number | null }[]>`select price_usd from pools where address = ${p.pool}`;
      expect(Math.abs(row.price_usd! / usd - 1), `${p.pool} ${p.v3 ? "v3" : "v2"}`).toBeLessThan(1e-9);
      const depth =
        (Number((await poolBalances(p, indexed)).quote) / 10 ** (await decimals(p.quote))) *
        (p.quote === q.weth ? weth : 1);
      if ((best.get(p.token)?.depth ?? 0) < depth) best.set(p.token, { pool: p.pool, depth, usd });
      if (!p.v3) continue;
      // QuoterV2: a trade of a cent of the quote, less the pool's fee, buys at the marginal price.
      const amountIn = perDollar(p.quote) / 100n;
      const quoted = await read<readonly [bigint]>(
        market.deployment.uniswapV3.quoterV2,
        "QuoterV2",
        "quoteExactInputSingle",
        [{ tokenIn: p.quote, tokenOut: p.token, amountIn, fee: FEE, sqrtPriceLimitX96: 0n }],
      );
      const perToken =
        ((Number(amountIn) * (1 - FEE / 1e6)) /
          10 ** (await decimals(p.quote)) /
          (Number(quoted[0]) / 10 ** (await decimals(p.token)))) *
        (p.quote === q.weth ? weth : 1);
      expect(Math.abs(row.price_usd! / perToken - 1), `${p.pool} quoter`).toBeLessThan(1e-5);
    }
    for (const [token, b] of best) {
      const [m] = await sql<
        { price_usd: number; priced_pool: string }[]
      >`select price_usd, priced_pool from token_metrics where address = ${token}`;
      expect(m.priced_pool, token).toBe(b.pool);
      expect(Math.abs(m.price_usd / b.usd - 1), token).toBeLessThan(1e-9);
      expect(b.usd).toBeGreaterThan(0.5);
    }
  });

  it("keeps each trader's books as by hand from the chain: quantity, cost basis, realized and open PnL", async () => {
    const dbh = createDb(sql);
    const weth = await wethUsd(indexed);
    let compared = 0;
    for (const [k, b] of books) {
      const [wallet, token] = k.split(":");
      if (wallet === traders.receiver) continue;
      expect(b.quantity).toBe(await market.balanceOf(token, wallet, indexed));
      const [row] = await sql<{ quantity: string; cost_basis_usd: number; realized_pnl_usd: number }[]>`
        select quantity::text, cost_basis_usd, realized_pnl_usd from wallet_positions
          where wallet = ${wallet} and token_address = ${token}`;
      expect(row.quantity).toBe(String(b.quantity));
      expect(row.cost_basis_usd).toBeCloseTo(b.cost, 6);
      expect(row.realized_pnl_usd).toBeCloseTo(b.realized, 6);
      expect(b.realized).not.toBe(0);
      // Unrealized: the holding at the token's price (its deepest pool's, from the chain) less its cost.
      const deepest = await sql<
        { priced_pool: string }[]
      >`select priced_pool from token_metrics where address = ${token}`;
      const p = pools.find((x) => x.pool === deepest[0].priced_pool)!;
      const price = (await marginalPrice(p, indexed)) * (p.quote === q.weth ? weth : 1);
      const listed = (await listPositions(dbh, wallet, { status: "all", page: 1, limit: 50 }))!.data.find(
        (x) => x.token_address === token,
      )!;
      expect(listed.cost_basis_usd).toBeCloseTo(b.cost, 2);
      expect(listed.realized_pnl_usd).toBeCloseTo(b.realized, 2);
      expect(listed.unrealized_pnl_usd).toBeCloseTo((Number(b.quantity) / 1e18) * price - b.cost, 2);
      compared++;
    }
    expect(compared).toBe(4);
    // The receiver's tokens came by transfer: of unknown cost.
    const received = await sql<{ cost_basis_usd: number; unknown: string }[]>`
      select cost_basis_usd, unknown_cost_quantity::text as unknown
        from wallet_positions where wallet = ${traders.receiver} and token_address = any(${[q.dtt, q.b32, q.wft]})`;
    expect(received.length).toBe(3);
    for (const r of received) expect([r.cost_basis_usd, BigInt(r.unknown) > 0n]).toEqual([0, true]);
  });

  it("lists a fee-on-transfer swap as one swap: its fee is no transfer of its own", async () => {
    const rows = await sql<{ type: string; n: number }[]>`
      select e.type, count(*)::int as n from events e
       where e.token_address = ${q.dtt}
         and e.tx_hash in (select tx_hash from events where wallet_address = ${traders.fot} and type = 'swap')
       group by e.type order by e.type`;
    expect(rows).toEqual([{ type: "swap", n: 6 }]);
    // A plain transfer of it burns its fee: the chain's two Transfer logs, the burn to the zero address among them.
    const burns = await sql<{ n: number }[]>`select count(*)::int as n
      from events where token_address = ${q.dtt} and type = 'transfer' and to_address = ${ZERO}`;
    expect(burns[0].n).toBeGreaterThan(0);
  });

  it("pays the wallet-fee token's cut to its wallet as fees of the swaps it split, learnt from the swap", async () => {
    const sinks = await sql<
      { address: string; fee_sinks: string[] }[]
    >`select address, fee_sinks from tokens where address = any(${[q.wft, q.dtt]})`;
    // DeflatingERC20 burns its fee: a burn is a fee sink of every token, none to learn.
    expect(Object.fromEntries(sinks.map((t) => [t.address, t.fee_sinks]))).toEqual({
      [q.wft]: [FEE_WALLET],
      [q.dtt]: [],
    });
    // Each swap is one swap event; the cut of each went to the wallet as a fee, and the transfer's cut as a transfer.
    const rows = await sql<{ type: string; n: number }[]>`
      select e.type, count(*)::int as n from events e
       where e.token_address = ${q.wft}
         and e.tx_hash in (select tx_hash from events where wallet_address = ${traders.wft} and type = 'swap')
       group by e.type order by e.type`;
    expect(rows).toEqual([{ type: "swap", n: 5 }]);
    const cuts = await sql<{ kind: string; n: number }[]>`
      select kind, count(*)::int as n from token_transfers
        where token_address = ${q.wft} and to_address = ${FEE_WALLET} group by kind order by kind`;
    expect(cuts).toEqual([
      { kind: "fee", n: 5 },
      { kind: "transfer", n: 1 },
    ]);
    // The wallet holds what it was paid, all of unknown cost: it bought nothing.
    const [wallet] = await sql<{ quantity: string; unknown: string; cost_basis_usd: number; buy_count: number }[]>`
      select quantity::text, unknown_cost_quantity::text as unknown, cost_basis_usd, buy_count from wallet_positions
       where wallet = ${FEE_WALLET} and token_address = ${q.wft}`;
    const balance = String(await market.balanceOf(q.wft, FEE_WALLET, indexed));
    expect(wallet).toEqual({ quantity: balance, unknown: balance, cost_basis_usd: 0, buy_count: 0 });
  });
});
