import { type Context, ponder } from "ponder:registry";
import { events, pools, poolTxs, tokens, wethPricing } from "ponder:schema";
import { erc20Abi } from "viem";
import { EVENT_ID_BLOCK_FACTOR } from "../../../../lib/domain/vocab";
import { valueUsd } from "../../../../worker/derive/prices";
import { ChainState, type PoolState } from "../../../../worker/indexer/state";
import { actionOf, applyV3, type LogFields } from "../../../../worker/indexer/v3-pool";
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
type PoolRow = typeof pools.$inferSelect;
type Hex = `0x${string}`;
type Log = {
  log: { address: Hex; logIndex: number };
  block: { number: bigint; timestamp: bigint };
  transaction: { hash: Hex; from: Hex };
};

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
  for (const address of wanted) state.addPool({ ...(await db.find(pools, { address }))!, createdBlock: 0 });
  return state;
}

/** The pool's part in this transaction so far (what poolTxs records). */
const poolTxId = (e: Log, pool: Hex) => `${e.transaction.hash}:${pool}`;

/**
 * A pool swapped or changed liquidity: the transfers to or from it listed earlier in the transaction
 * were its legs. They are marked, not deleted: Ponder's store updates a row in memory, but sends
 * each delete to the database at once.
 */
async function poolActed(db: Db, e: Log, pool: Hex) {
  const id = poolTxId(e, pool);
  const before = await db.find(poolTxs, { id });
  for (const transferId of before?.transferIds ?? []) await db.update(events, { id: transferId }).set({ leg: true });
  await db
    .insert(poolTxs)
    .values({ id, acted: true, transferIds: [] })
    .onConflictDoUpdate({ acted: true, transferIds: [] });
}

/** A new pool: tracked when it can carry a launched token's events or prices WETH (ChainState.wantsPool). */
async function poolCreated(db: Db, protocol: PoolRow["protocol"], token0: Hex, token1: Hex, address: Hex) {
  const launched = await Promise.all([token0, token1].map((t) => db.find(tokens, { address: t })));
  const quotePair = quotes.has(token0) && quotes.has(token1);
  if (!launched.some(Boolean) && !quotePair) return;
  await db.insert(pools).values({
    address,
    protocol,
    token0,
    token1,
    reserve0: 0n,
    reserve1: 0n,
    sqrtPriceX96: 0n,
    tick: 0,
    liquidity: 0n,
  });
  for (const [i, t] of launched.entries()) {
    if (t && quotes.has(i === 0 ? token1 : token0))
      await db.update(tokens, { address: t.address }).set({ pools: [...t.pools, address] });
  }
  const wethSide = token0 === profile.weth ? token1 : token1 === profile.weth ? token0 : null;
  if (wethSide && profile.quoteTokens.some((q) => q.stable && q.address === wethSide)) {
    await db
      .insert(wethPricing)
      .values({ id: 0, pools: [address] })
      .onConflictDoUpdate((row) => ({ pools: [...row.pools, address] }));
  }
}

ponder.on("Factory:PairCreated", async ({ event, context }) => {
  await poolCreated(
    context.db,
    "uniswap-v2",
    lower(event.args.token0),
    lower(event.args.token1),
    lower(event.args.pair),
  );
});
ponder.on("FactoryV3:PoolCreated", async ({ event, context }) => {
  await poolCreated(
    context.db,
    "uniswap-v3",
    lower(event.args.token0),
    lower(event.args.token1),
    lower(event.args.pool),
  );
});

ponder.on("Pair:Sync", async ({ event, context }) => {
  const address = lower(event.log.address);
  if (!(await context.db.find(pools, { address }))) return;
  await context.db.update(pools, { address }).set({ reserve0: event.args.reserve0, reserve1: event.args.reserve1 });
});

/** Token and quote amounts of a swap or liquidity change as the trader sees them (worker/indexer/transform.ts). */
type Moved = { kind: "swap" | "mint" | "burn"; token: bigint; quote: bigint; direction: "buy" | "sell" | null };

/** Which side of a pool is the launched token; null for quote/quote pools. */
async function sidesOf(db: Db, pool: PoolRow) {
  if (await db.find(tokens, { address: pool.token0 }))
    return { tokenIs0: true, token: pool.token0, quote: pool.token1 };
  if (await db.find(tokens, { address: pool.token1 }))
    return { tokenIs0: false, token: pool.token1, quote: pool.token0 };
  return null;
}

/** The event row of a swap or liquidity change of a launched token's pool, valued by its quote side. */
async function poolEvent(db: Db, e: Log, pool: PoolRow, token: Hex, quote: Hex, moved: Moved) {
  const tokenSideUsd = valueUsd(await pricing(db, null), quote, moved.quote < 0n ? -moved.quote : moved.quote);
  await db.insert(events).values({
    ...position(e),
    type: moved.kind === "swap" ? "swap" : moved.kind === "mint" ? "liquidity_add" : "liquidity_remove",
    walletAddress: lower(e.transaction.from),
    tokenAddress: token,
    poolAddress: pool.address,
    tokenAmount: moved.token,
    // A liquidity change moves both sides, each worth the quote side.
    amountUsd: moved.kind === "swap" ? tokenSideUsd : 2 * tokenSideUsd,
    direction: moved.direction,
  });
}

/** A V2 swap, Mint or Burn (amounts into and out of the pair; Mint and Burn amounts arrive as `in`). */
async function pairEvent(
  db: Db,
  e: Log,
  kind: "swap" | "mint" | "burn",
  amounts: { in: [bigint, bigint]; out: [bigint, bigint] },
) {
  const address = lower(e.log.address);
  const pool = await db.find(pools, { address });
  if (!pool) return;
  await poolActed(db, e, address);
  const s = await sidesOf(db, pool);
  if (!s) return;
  const pick = ([a0, a1]: [bigint, bigint]) => (s.tokenIs0 ? [a0, a1] : [a1, a0]);
  const [tIn, qIn] = pick(amounts.in);
  const [tOut, qOut] = pick(amounts.out);
  const direction = kind === "swap" ? (tOut > tIn ? "buy" : "sell") : null;
  const moved: Moved =
    direction === "buy"
      ? { kind, direction, token: tOut - tIn, quote: qIn - qOut }
      : { kind, direction, token: tIn - tOut, quote: qOut - qIn };
  await poolEvent(db, e, pool, s.token, s.quote, moved);
}

ponder.on("Pair:Swap", async ({ event, context }) => {
  const a = event.args;
  await pairEvent(context.db, event, "swap", { in: [a.amount0In, a.amount1In], out: [a.amount0Out, a.amount1Out] });
});
ponder.on("Pair:Mint", async ({ event, context }) => {
  await pairEvent(context.db, event, "mint", { in: [event.args.amount0, event.args.amount1], out: [0n, 0n] });
});
ponder.on("Pair:Burn", async ({ event, context }) => {
  await pairEvent(context.db, event, "burn", { in: [event.args.amount0, event.args.amount1], out: [0n, 0n] });
});

/**
 * A V3 pool log: folded into the pool's state by the worker's own rule (applyV3), then, for a swap
 * or a liquidity change, the event row. A collect (what a burn or fees left owed) has none of its
 * own, but its token movements are its legs.
 */
async function poolV3Event(db: Db, e: Log, fields: LogFields) {
  const address = lower(e.log.address);
  const pool = await db.find(pools, { address });
  if (!pool) return;
  const state: PoolState = { ...pool, createdBlock: 0 };
  const delta = applyV3(state, fields)!;
  const { reserve0, reserve1, sqrtPriceX96, tick, liquidity } = state;
  await db.update(pools, { address }).set({ reserve0, reserve1, sqrtPriceX96, tick, liquidity });
  const action = actionOf(fields);
  if (!action) return;
  await poolActed(db, e, address);
  const s = await sidesOf(db, pool);
  if (!s || action === "collect") return;
  const [t, q] = s.tokenIs0 ? [delta.amount0, delta.amount1] : [delta.amount1, delta.amount0];
  const abs = (x: bigint) => (x < 0n ? -x : x);
  await poolEvent(db, e, pool, s.token, s.quote, {
    kind: action,
    token: abs(t),
    quote: abs(q),
    direction: action === "swap" ? (t < 0n ? "buy" : "sell") : null,
  });
}

ponder.on("PoolV3:Initialize", async ({ event, context }) => {
  await poolV3Event(context.db, event, {
    kind: "initialize",
    sqrtPriceX96: event.args.sqrtPriceX96,
    tick: event.args.tick,
  });
});
ponder.on("PoolV3:Swap", async ({ event, context }) => {
  const { amount0, amount1, sqrtPriceX96, liquidity, tick, recipient } = event.args;
  await poolV3Event(context.db, event, {
    kind: "swapV3",
    amount0,
    amount1,
    sqrtPriceX96,
    liquidity,
    tick,
    recipient: lower(recipient),
  });
});
ponder.on("PoolV3:Mint", async ({ event, context }) => {
  const { owner, tickLower, tickUpper, amount, amount0, amount1 } = event.args;
  await poolV3Event(context.db, event, {
    kind: "mintV3",
    owner: lower(owner),
    tickLower,
    tickUpper,
    liquidity: amount,
    amount0,
    amount1,
  });
});
ponder.on("PoolV3:Burn", async ({ event, context }) => {
  const { owner, tickLower, tickUpper, amount, amount0, amount1 } = event.args;
  await poolV3Event(context.db, event, {
    kind: "burnV3",
    owner: lower(owner),
    tickLower,
    tickUpper,
    liquidity: amount,
    amount0,
    amount1,
  });
});
ponder.on("PoolV3:Collect", async ({ event, context }) => {
  await poolV3Event(context.db, event, { kind: "collectV3", amount0: event.args.amount0, amount1: event.args.amount1 });
});
ponder.on("PoolV3:CollectProtocol", async ({ event, context }) => {
  await poolV3Event(context.db, event, { kind: "collectV3", amount0: event.args.amount0, amount1: event.args.amount1 });
});
ponder.on("PoolV3:Flash", async ({ event, context }) => {
  await poolV3Event(context.db, event, { kind: "flash", paid0: event.args.paid0, paid1: event.args.paid1 });
});

/**
 * A launched token's Transfer: its mint registers the token; any other move is a transfer event unless it is a pool's
 * leg.
 */
async function tokenTransfer(
  db: Db,
  client: Context["client"],
  event: Log & { args: { from: Hex; to: Hex; value: bigint } },
) {
  const token = lower(event.log.address);
  const [from, to] = [lower(event.args.from), lower(event.args.to)];
  if (from === ZERO) {
    // A launched token's first log is the mint of its whole supply, before its pair exists.
    const decimals = await client
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
  const row = {
    ...position(event),
    type: "transfer",
    walletAddress: from,
    toAddress: to,
    tokenAddress: token,
    tokenAmount: event.args.value,
  };
  await db.insert(events).values({ ...row, amountUsd: valueUsd(await pricing(db, token), token, event.args.value) });
  for (const pool of touched) {
    await db
      .insert(poolTxs)
      .values({ id: poolTxId(event, pool), acted: false, transferIds: [row.id] })
      .onConflictDoUpdate((r) => ({ transferIds: [...r.transferIds, row.id] }));
  }
}

ponder.on("Token:Transfer", async ({ event, context }) => tokenTransfer(context.db, context.client, event));
ponder.on("TokenV3:Transfer", async ({ event, context }) => tokenTransfer(context.db, context.client, event));
