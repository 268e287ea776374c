import { type Context, ponder } from "ponder:registry";
import { events, pools, poolTxs, tokens, wethPricing } from "ponder:schema";
import { erc20Abi } from "viem";
import { EVENT_ID_BLOCK_FACTOR } from "../../../../lib/domain/vocab";
import { valueUsd } from "../../../../worker/derive/prices";
import { ChainState } from "../../../../worker/indexer/state";
import { peer } from "../peer";

/**
 * The same event rows our worker writes (worker/indexer/transform.ts), from Ponder's indexing
 * functions: a swap or liquidity change of a pool holding a launched token, traded by the
 * transaction's sender; a launched token's transfer unless it is a leg of a swap or liquidity
 * change of the same transaction; each valued in USD by our pricing rule (worker/derive/prices.ts)
 * over the reserves as of its log. The repo's modules it imports are read by Ponder's Vite, which
 * does not resolve the repo's `@/` paths: only modules without such value imports can be shared.
 */

type Db = Context["db"];
type Hex = `0x${string}`;
type Log = { log: { address: Hex; logIndex: number }; block: { number: bigint; timestamp: bigint }; transaction: { hash: Hex; from: Hex } };

const ZERO = "0x0000000000000000000000000000000000000000";
const { profile } = peer;
const quotes = new Set(profile.quoteTokens.map((q) => q.address));
const lower = (a: string) => a.toLowerCase() as Hex;

const position = (e: Log) => ({
  // events.id: the chain position (worker/indexer/transform.ts eventId).
  id: Number(e.block.number) * EVENT_ID_BLOCK_FACTOR + e.log.logIndex,
  blockNumber: Number(e.block.number),
  logIndex: e.log.logIndex,
  txHash: e.transaction.hash,
  timestamp: Number(e.block.timestamp),
});

/**
 * The worker's in-memory pricing view, built from the rows pricing needs: the WETH/stablecoin
 * pools and, for a launched token, its pools against a quote token.
 */
async function pricing(db: Db, token: Hex | null): Promise<ChainState> {
  const state = new ChainState(profile);
  const wanted = new Set((await db.find(wethPricing, { id: 0 }))?.pools ?? []);
  if (token) {
    const t = (await db.find(tokens, { address: token }))!;
    state.addToken({ address: token, decimals: t.decimals, createdBlock: 0 });
    for (const p of t.pools) wanted.add(p);
  }
  for (const address of wanted) {
    const p = (await db.find(pools, { address }))!;
    state.addPool({ ...p, createdBlock: 0 });
  }
  return state;
}

/** The pool's part in this transaction so far (what poolTxs records). */
const poolTxId = (e: Log, pool: Hex) => `${e.transaction.hash}:${pool}`;

/** A pool swapped or changed liquidity: the transfers to or from it listed earlier in the transaction were its legs. */
async function poolActed(db: Db, e: Log, pool: Hex) {
  const id = poolTxId(e, pool);
  const before = await db.find(poolTxs, { id });
  for (const transferId of before?.transferIds ?? []) await db.delete(events, { id: transferId });
  await db.insert(poolTxs).values({ id, acted: true, transferIds: [] }).onConflictDoUpdate({ acted: true, transferIds: [] });
}

ponder.on("Factory:PairCreated", async ({ event, context }) => {
  const [token0, token1, address] = [lower(event.args.token0), lower(event.args.token1), lower(event.args.pair)];
  const launched = await Promise.all([token0, token1].map((t) => context.db.find(tokens, { address: t })));
  const quotePair = quotes.has(token0) && quotes.has(token1);
  if (!launched.some(Boolean) && !quotePair) return;
  await context.db.insert(pools).values({ address, token0, token1, reserve0: 0n, reserve1: 0n });
  for (const [i, t] of launched.entries()) {
    if (t && quotes.has(i === 0 ? token1 : token0)) await context.db.update(tokens, { address: t.address }).set({ pools: [...t.pools, address] });
  }
  const wethSide = token0 === profile.weth ? token1 : token1 === profile.weth ? token0 : null;
  if (wethSide && profile.quoteTokens.some((q) => q.stable && q.address === wethSide)) {
    await context.db
      .insert(wethPricing)
      .values({ id: 0, pools: [address] })
      .onConflictDoUpdate((row) => ({ pools: [...row.pools, address] }));
  }
});

ponder.on("Pair:Sync", async ({ event, context }) => {
  const address = lower(event.log.address);
  if (!(await context.db.find(pools, { address }))) return;
  await context.db.update(pools, { address }).set({ reserve0: event.args.reserve0, reserve1: event.args.reserve1 });
});

/** A swap or liquidity change: its event row when the pool holds a launched token, valued by its quote side. */
async function poolEvent(db: Db, e: Log, kind: "swap" | "liquidity_add" | "liquidity_remove", amounts: { in: [bigint, bigint]; out: [bigint, bigint] }) {
  const address = lower(e.log.address);
  const pool = await db.find(pools, { address });
  if (!pool) return;
  await poolActed(db, e, address);
  const tokenIs0 = Boolean(await db.find(tokens, { address: pool.token0 }));
  if (!tokenIs0 && !(await db.find(tokens, { address: pool.token1 }))) return;
  const [token, quote] = tokenIs0 ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
  const pick = ([a0, a1]: [bigint, bigint]) => (tokenIs0 ? [a0, a1] : [a1, a0]);
  const [tIn, qIn] = pick(amounts.in);
  const [tOut, qOut] = pick(amounts.out);
  const direction = kind === "swap" ? (tOut > tIn ? "buy" : "sell") : null;
  // Mint and Burn amounts arrive as `in`: one amount per side, no direction.
  const tokenAmount = direction === "buy" ? tOut - tIn : tIn - tOut;
  const quoteAmount = direction === "buy" ? qIn - qOut : qOut - qIn;
  const tokenSideUsd = valueUsd(await pricing(db, null), quote, quoteAmount < 0n ? -quoteAmount : quoteAmount);
  await db.insert(events).values({
    ...position(e),
    type: kind,
    walletAddress: lower(e.transaction.from),
    tokenAddress: token,
    poolAddress: address,
    tokenAmount,
    // A liquidity change moves both sides, each worth the quote side.
    amountUsd: kind === "swap" ? tokenSideUsd : 2 * tokenSideUsd,
    direction,
  });
}

ponder.on("Pair:Swap", async ({ event, context }) => {
  const a = event.args;
  await poolEvent(context.db, event, "swap", { in: [a.amount0In, a.amount1In], out: [a.amount0Out, a.amount1Out] });
});
ponder.on("Pair:Mint", async ({ event, context }) => {
  await poolEvent(context.db, event, "liquidity_add", { in: [event.args.amount0, event.args.amount1], out: [0n, 0n] });
});
ponder.on("Pair:Burn", async ({ event, context }) => {
  await poolEvent(context.db, event, "liquidity_remove", { in: [event.args.amount0, event.args.amount1], out: [0n, 0n] });
});

ponder.on("Token:Transfer", async ({ event, context }) => {
  const { db } = context;
  const token = lower(event.log.address);
  const [from, to] = [lower(event.args.from), lower(event.args.to)];
  if (from === ZERO) {
    // A launched token's first log is the mint of its whole supply, before its pair exists.
    const decimals = await context.client
      .readContract({ abi: erc20Abi, address: token, functionName: "decimals" })
      .then(Number)
      .catch(() => 18);
    await db.insert(tokens).values({ address: token, decimals, pools: [] }).onConflictDoNothing();
    return;
  }
  const touched: Hex[] = [];
  for (const side of new Set([from, to])) {
    if (!(await db.find(pools, { address: side }))) continue;
    const record = await db.find(poolTxs, { id: poolTxId(event, side) });
    if (record?.acted) return;
    touched.push(side);
  }
  const row = { ...position(event), type: "transfer", walletAddress: from, toAddress: to, tokenAddress: token, tokenAmount: event.args.value };
  await db.insert(events).values({ ...row, amountUsd: valueUsd(await pricing(db, token), token, event.args.value) });
  for (const pool of touched) {
    await db
      .insert(poolTxs)
      .values({ id: poolTxId(event, pool), acted: false, transferIds: [row.id] })
      .onConflictDoUpdate((r) => ({ transferIds: [...r.transferIds, row.id] }));
  }
});
