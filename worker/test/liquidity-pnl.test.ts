import {
  type Abi,
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  getContractAddress,
  type Hex,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { type Artifacts, loadArtifacts } from "@/devchain/compile";
import { listPositions } from "@/lib/queries/positions";
import { getWalletProfile } from "@/lib/queries/wallets";
import { wethUsd } from "@/worker/derive/prices";
import { Indexer } from "@/worker/indexer/indexer";
import { toHex } from "@/worker/indexer/rpc";
import { ChainState } from "@/worker/indexer/state";
import { createTestDatabase, type TestDatabase } from "./db";
import { DevchainMarket } from "./devchain-market";
import { dumpChainTables } from "./dump";

/**
 * Rugs through the real launchpads and Uniswap contracts of the dev chain, indexed by the real
 * worker: a V2 creator pairs ether with its launch and pulls the liquidity after traders bought
 * in; a V3 creator launches a single-sided position in the launchpad's locker, takes it out and
 * collects it. Each creator's PnL is what the chain says it took: the WETH it received less the
 * ether it put in, plus its tokens at their price now (nothing, the pool is gone). Then a reorg
 * under one of the rugs: the positions and liquidity stakes a rollback recomputes equal those of
 * a database that indexed the final chain from nothing.
 */

const E18 = 10n ** 18n;
const DEADLINE = 2n ** 40n;
const MAX = 2n ** 255n;
const UINT128_MAX = 2n ** 128n - 1n;
const V3_FEE = 10_000;

let market: DevchainMarket;
let art: Artifacts;
let database: TestDatabase;
let sql: Sql;
let db: Db;
let ix: Indexer;
const dbs: TestDatabase[] = [];

const data = (name: keyof Artifacts | "erc20", functionName: string, args: unknown[] = []): Hex =>
  encodeFunctionData({ abi: (name === "erc20" ? erc20Abi : art[name].abi) as Abi, functionName, args } as never);

/** Sends one transaction and mines it alone; it must succeed. Returns its receipt's logs. */
async function mined(from: string, to: string, input: Hex, value = 0n) {
  const hash = await market.rpc.call<Hex>("eth_sendTransaction", [
    { from, to, data: input, value: `0x${value.toString(16)}`, gas: toHex(9_000_000), gasPrice: "0x0" },
  ]);
  await market.mine();
  type Receipt = { status: Hex; logs: { address: string; topics: Hex[]; data: Hex }[] };
  const receipt = await market.rpc.call<Receipt>("eth_getTransactionReceipt", [hash]);
  if (receipt.status !== "0x1") throw new Error(`transaction ${hash} failed`);
  return receipt.logs;
}

async function read<T>(to: string, name: keyof Artifacts, functionName: string, args: unknown[]): Promise<T> {
  const out = await market.rpc.call<Hex>("eth_call", [{ to, data: data(name, functionName, args) }, "latest"]);
  return decodeFunctionResult({ abi: art[name].abi as Abi, functionName, data: out } as never) as T;
}

const weth = () => market.deployment.weth;
const wethOf = async (who: string) => market.balanceOf(weth(), who, await market.head());

async function syncToHead() {
  for (let i = 0; i < 200; i++) if ((await ix.cycle()).step === "idle") return;
  throw new Error("did not catch up");
}

function isqrt(y: bigint): bigint {
  if (y < 4n) return y === 0n ? 0n : 1n;
  let z = y;
  let x = y / 2n + 1n;
  while (x < z) [z, x] = [x, (y / x + x) / 2n];
  return z;
}

/** A V2 launch paying `eth` for the pair's WETH side, traders buying in, and the creator pulling all its LP shares. */
async function v2Rug(creator: string, buyers: string[], eth: bigint) {
  const pad = market.deployment.launchpads.find((l) => l.protocol === "uniswap-v2")!.address;
  const launch = data("V2Launchpad", "launch", ["Rug Dog", "RDOG", 1_000_000n * E18, 600_000n * E18]);
  const logs = await mined(creator, pad, launch, eth);
  const launched = logs.find((l) => l.address.toLowerCase() === pad.toLowerCase())!;
  const [token, pair] = [launched.topics[1], launched.topics[2]].map((t) => `0x${t.slice(26)}`);
  const router = market.deployment.uniswapV2.router;
  for (const buyer of buyers) {
    const buy = data("UniswapV2Router02", "swapExactETHForTokens", [0n, [weth(), token], buyer, DEADLINE]);
    await mined(buyer, router, buy, 3n * E18);
  }
  const shares = await market.balanceOf(pair, creator, await market.head());
  await mined(creator, pair, data("erc20", "approve", [router, MAX]));
  const before = await wethOf(creator);
  const remove = data("UniswapV2Router02", "removeLiquidity", [token, weth(), shares, 0n, 0n, creator, DEADLINE]);
  await mined(creator, router, remove);
  return { token, paid: eth, received: (await wethOf(creator)) - before };
}

/** A V3 launch of the whole supply into the launchpad's locker (withdrawable), and traders buying in. */
async function v3Launch(creator: string, buyers: string[]) {
  const pad = market.deployment.launchpads.find((l) => l.protocol === "uniswap-v3")!.address;
  // The token's address, for the pool's price: the launchpad's next contract.
  const nonce = Number(BigInt(await market.rpc.call<Hex>("eth_getTransactionCount", [pad, "latest"])));
  const token = getContractAddress({ from: pad as Hex, nonce: BigInt(nonce) }).toLowerCase();
  const [supply, ethDepth] = [1_000_000n * E18, 10n * E18];
  const tokenIs0 = token < weth();
  const sqrtPriceX96 = isqrt(((tokenIs0 ? ethDepth : supply) << 192n) / (tokenIs0 ? supply : ethDepth));
  const launch = data("V3Launchpad", "launch", ["Pull Cat", "PCAT", supply, sqrtPriceX96, true]);
  const logs = await mined(creator, pad, launch);
  const created = logs.find((l) => l.address.toLowerCase() === pad.toLowerCase())!;
  const topics = created.topics as [Hex, ...Hex[]];
  const event = decodeEventLog({ abi: art.V3Launchpad.abi as Abi, data: created.data, topics });
  const args = event.args as unknown as { token: string; positionId: bigint };
  expect(args.token.toLowerCase()).toBe(token);
  const router = market.deployment.uniswapV3.swapRouter;
  for (const buyer of buyers) {
    const params = {
      tokenIn: weth(),
      tokenOut: token,
      fee: V3_FEE,
      recipient: buyer,
      deadline: DEADLINE,
      amountIn: 2n * E18,
      amountOutMinimum: 0n,
      sqrtPriceLimitX96: 0n,
    };
    await mined(buyer, router, data("SwapRouter", "exactInputSingle", [params]), 2n * E18);
  }
  return { token, positionId: args.positionId };
}

/** The creator takes its V3 position out of the locker, removes `share` percent of its liquidity, collects all owed. */
async function v3Pull(creator: string, positionId: bigint, share: bigint) {
  const npm = market.deployment.uniswapV3.positionManager;
  const owner = await read<string>(npm, "NonfungiblePositionManager", "ownerOf", [positionId]);
  const locker = market.deployment.lockers[0].address;
  if (owner.toLowerCase() !== creator) await mined(creator, locker, data("LiquidityLocker", "release", [positionId]));
  const position = await read<readonly bigint[]>(npm, "NonfungiblePositionManager", "positions", [positionId]);
  const liquidity = position[7];
  const decrease = data("NonfungiblePositionManager", "decreaseLiquidity", [
    { tokenId: positionId, liquidity: (liquidity * share) / 100n, amount0Min: 0n, amount1Min: 0n, deadline: DEADLINE },
  ]);
  const collect = data("NonfungiblePositionManager", "collect", [
    { tokenId: positionId, recipient: creator, amount0Max: UINT128_MAX, amount1Max: UINT128_MAX },
  ]);
  const before = await wethOf(creator);
  await mined(creator, npm, data("NonfungiblePositionManager", "multicall", [[decrease, collect]]));
  return (await wethOf(creator)) - before;
}

/** The creator's figures as the API serves them: the profile's PnL, and the token's position. */
async function served(creator: string, token: string) {
  const profile = (await getWalletProfile(db, creator))!;
  const positions = (await listPositions(db, creator, { status: "all", page: 1, limit: 200 }))!;
  return { pnl: profile.pnl_estimate_usd, position: positions.data.find((p) => p.token_address === token)! };
}

/** The tables a rollback recomputes the books into, from a database. */
async function books(url: string) {
  const dump = await dumpChainTables(url);
  const { wallet_positions, liquidity_stakes, liquidity_changes } = dump;
  return { wallet_positions, liquidity_stakes, liquidity_changes };
}

describe("a rugger's PnL counts what it took (dev chain)", { timeout: 300_000 }, () => {
  let usdPerEth: number;

  beforeAll(async () => {
    market = await DevchainMarket.start(11);
    art = await loadArtifacts();
    database = await createTestDatabase();
    sql = connect(database.url, { max: 4 });
    db = createDb(sql);
    ix = await Indexer.create({ sql, rpc: market.rpc, profile: market.profile, fullRefreshIntervalMs: 0 });
    await syncToHead();
    usdPerEth = wethUsd(await ChainState.load(sql, market.profile));
    expect(usdPerEth).toBeCloseTo(3000, 0);
  }, 300_000);
  afterAll(async () => {
    await sql?.end();
    await market?.stop();
    await database?.drop();
    for (const d of dbs) await d.drop();
  });

  it("shows a V2 creator that pulled its pool the WETH it took less the ether it paired", async () => {
    const [creator, ...traders] = market.accounts.slice(1, 5);
    const rug = await v2Rug(creator, traders, 5n * E18);
    await syncToHead();
    const took = (Number(rug.received - rug.paid) / 1e18) * usdPerEth;
    expect(took).toBeGreaterThan(10_000);
    const { pnl, position } = await served(creator, rug.token);
    // The pool is gone, so its tokens are worth nothing: the profit is the WETH.
    expect(position.value_usd).toBe(0);
    expect(pnl).toBeCloseTo(took, 1);
    expect(position.pnl_usd).toBeCloseTo(took, 1);
    expect(position.realized_pnl_usd).toBeGreaterThan(took);
    expect(position.liquidity_cost_usd).toBe(0);
  });

  it("shows a V3 creator that pulled its locked launch the WETH it collected, and a reorg the same books", async () => {
    const [creator, ...traders] = market.accounts.slice(5, 9);
    const { token, positionId } = await v3Launch(creator, traders);
    await syncToHead();
    // The position holds the supply at no cost to the creator: nothing at stake, no PnL yet.
    const [stake] = await sql<{ units: string; cost_usd: number }[]>`
      select units::text, cost_usd from liquidity_stakes where wallet = ${creator} and token_address = ${token}`;
    expect(BigInt(stake.units)).toBeGreaterThan(0n);
    expect(stake.cost_usd).toBe(0);

    // A branch where it takes half out, indexed, then rolled back for one where it takes it all.
    const revert = await market.snapshot();
    await v3Pull(creator, positionId, 50n);
    await syncToHead();
    await revert();
    const collected = await v3Pull(creator, positionId, 100n);
    await syncToHead();
    const took = (Number(collected) / 1e18) * usdPerEth;
    expect(took).toBeGreaterThan(5_000);
    const { pnl, position } = await served(creator, token);
    expect(position.value_usd).toBe(0);
    expect(pnl).toBeCloseTo(took, 1);
    expect(position.realized_pnl_usd).toBeGreaterThan(took);

    // What the rollback recomputed equals what indexing the final chain from nothing gives.
    const clean = await createTestDatabase();
    dbs.push(clean);
    const cleanSql = connect(clean.url, { max: 4 });
    const fresh = await Indexer.create({ sql: cleanSql, rpc: market.rpc, profile: market.profile });
    for (let i = 0; i < 200 && (await fresh.cycle()).step !== "idle"; i++);
    await cleanSql.end();
    expect(await books(database.url)).toEqual(await books(clean.url));
  });
});
