import type { PgTable } from "drizzle-orm/pg-core";
import { type ColumnKey, type InTx, insertSql, names, PREPARED, pipelined, tableName, updateSql } from "@/db/bulk";
import {
  balances,
  blocks,
  CHAIN_DERIVED_TABLES,
  events,
  eventTombstones as eventTombstonesTable,
  holderCountHistory,
  liquidityChanges,
  liquidityStakes,
  poolReserves,
  pools as poolsTable,
  positionEvents,
  reorgRollbacks,
  tokenScores,
  tokens as tokensTable,
  tokenTransfers,
  walletFunding,
  walletPositions,
} from "@/db/schema";
import { applyTransfers } from "../derive/balances";
import { recomputeCandles } from "../derive/candles";
import { applyPositions } from "../derive/positions";
import { linkFunders, upsertWalletActivity } from "../derive/wallets";
import type { ChainProfile } from "../profiles";
import { type BlockRef, clearCheckpoint, writeCheckpoint } from "./checkpoint";
import type { Rpc } from "./rpc";
import type { Tx } from "./sql";
import { ChainState } from "./state";
import type { LiquidityRow, TransferKind, TransferRow } from "./transform";
import { foldPositions } from "./write";

/** What a tombstone keeps of its event: the columns both tables have. */
const TOMBSTONE_COLUMNS = [
  "id",
  "type",
  "walletAddress",
  "toAddress",
  "tokenAddress",
  "blockNumber",
  "logIndex",
  "txHash",
  "timestamp",
] as const satisfies (ColumnKey<typeof events> & ColumnKey<typeof eventTombstonesTable>)[];

/** Stored blocks compared with the node per round trip while walking back. */
const WALK_PAGE = 64;

const bk = names(blocks);
const ev = names(events);
const tt = names(tokenTransfers);
const lc = names(liquidityChanges);
const BLOCKS = tableName(blocks);
const EVENTS = tableName(events);
const TRANSFERS = tableName(tokenTransfers);
const CHANGES = tableName(liquidityChanges);
/** $2 stored blocks at or below $1, newest first. */
const STORED_BLOCKS = `select ${bk.number} as number, ${bk.hash} as hash,
  extract(epoch from ${bk.timestamp})::float8 as time from ${BLOCKS}
  where ${bk.number} <= $1 order by ${bk.number} desc limit $2`;

/**
 * The highest stored block the node still has with the same hash: every block below it is
 * shared too (hashes chain). Null when no stored block survives.
 */
export async function findCommonAncestor(tx: Tx, rpc: Rpc, atOrBelow: number): Promise<BlockRef | null> {
  let cursor = atOrBelow;
  for (;;) {
    const stored = await tx.unsafe<{ number: string; hash: string; time: number }[]>(
      STORED_BLOCKS,
      [cursor, WALK_PAGE],
      PREPARED,
    );
    if (stored.length === 0) return null;
    const onNode = await rpc.getBlocks(
      stored.map((b) => Number(b.number)),
      false,
    );
    const i = stored.findIndex((b, k) => onNode[k]?.hash === b.hash);
    if (i >= 0) return { number: Number(stored[i].number), hash: stored[i].hash, timestamp: stored[i].time };
    cursor = Number(stored[stored.length - 1].number) - 1;
  }
}

/** A stored transfer with its block's time; the block number as postgres.js reads int8 (a string). */
type StoredTransfer = Pick<
  typeof tokenTransfers.$inferSelect,
  "logIndex" | "tokenAddress" | "fromAddress" | "toAddress" | "amount" | "txHash" | "txFrom" | "amountUsd"
> & { blockNumber: string; kind: TransferKind; time: number };

/** A stored liquidity change; the block number as postgres.js reads int8 (a string). */
type StoredChange = Pick<
  typeof liquidityChanges.$inferSelect,
  "logIndex" | "txHash" | "wallet" | "poolAddress" | "tokenAddress" | "units" | "quoteUsd"
> & { blockNumber: string; direction: LiquidityRow["direction"] };

const [wf, pr, pe] = [names(walletFunding), names(poolReserves), names(positionEvents)];
const tk = names(tokensTable);
const pl = names(poolsTable);
/** What the facts above block $1 touched, each as a list of `a`. */
const TOUCHED_TOKENS = `select ${tt.tokenAddress} as a from ${TRANSFERS} where ${tt.blockNumber} > $1
  union select ${lc.tokenAddress} from ${CHANGES} where ${lc.blockNumber} > $1`;
const TOUCHED_WALLETS = `select ${ev.walletAddress} as a from ${EVENTS} where ${ev.blockNumber} > $1
  union select ${ev.toAddress} from ${EVENTS} where ${ev.blockNumber} > $1 and ${ev.toAddress} is not null
  union select ${wf.wallet} from ${tableName(walletFunding)} where ${wf.blockNumber} > $1`;
const TOUCHED_POOLS = `select distinct ${pr.poolAddress} as a from ${tableName(poolReserves)}
  where ${pr.blockNumber} > $1`;
const TOUCHED_POSITIONS = `select distinct ${pe.manager} || ':' || ${pe.tokenId}::text as a
  from ${tableName(positionEvents)} where ${pe.blockNumber} > $1`;
const CANDLES_SINCE = `select ${ev.tokenAddress} as token, extract(epoch from min(${ev.timestamp}))::float8 as since
  from ${EVENTS} where ${ev.blockNumber} > $1 group by ${ev.tokenAddress}`;
/** The tokens and pools created above block $1. */
const DEAD_TOKENS = `select ${tk.address} as a from ${tableName(tokensTable)} where ${tk.createdBlock} > $1`;
const DEAD_POOLS = `select ${pl.address} as a from ${tableName(poolsTable)} where ${pl.createdBlock} > $1`;
/** The transfers and liquidity changes of the tokens $1, in chain order. */
const STORED_TRANSFERS = `
  select tt.${tt.blockNumber} as "blockNumber", tt.${tt.logIndex} as "logIndex",
         tt.${tt.tokenAddress} as "tokenAddress", tt.${tt.fromAddress} as "fromAddress",
         tt.${tt.toAddress} as "toAddress", tt.${tt.amount}::text as amount, tt.${tt.txHash} as "txHash",
         tt.${tt.txFrom} as "txFrom", tt.${tt.kind} as kind, tt.${tt.amountUsd} as "amountUsd",
         extract(epoch from b.${bk.timestamp})::float8 as time
    from ${TRANSFERS} tt join ${BLOCKS} b on b.${bk.number} = tt.${tt.blockNumber}
   where tt.${tt.tokenAddress} = any($1) order by tt.${tt.blockNumber}, tt.${tt.logIndex}`;
const STORED_CHANGES = `
  select ${lc.blockNumber} as "blockNumber", ${lc.logIndex} as "logIndex", ${lc.txHash} as "txHash",
         ${lc.wallet} as wallet, ${lc.poolAddress} as "poolAddress", ${lc.tokenAddress} as "tokenAddress",
         ${lc.direction} as direction, ${lc.units}::text as units, ${lc.quoteUsd} as "quoteUsd"
    from ${CHANGES} where ${lc.tokenAddress} = any($1) order by ${lc.blockNumber}, ${lc.logIndex}`;

/** Deletes the rows of `table` whose `key` column is one of $1. */
const deleteOf = <T extends PgTable>(table: T, key: ColumnKey<T>) =>
  `delete from ${tableName(table)} where ${names(table)[key]} = any($1::text[])`;

/** Supplies of the tokens $1 back to what mints and burns start from. */
const RESET_SUPPLY = updateSql(
  tokensTable,
  { totalSupply: `t.${tk.supplyBase}` },
  "",
  `t.${tk.address} = any($1::text[])`,
);
const RESET_LP_SUPPLY = updateSql(poolsTable, { lpTotalSupply: "0" }, "", `t.${pl.address} = any($1::text[])`);

const r = names(poolReserves);
/** The pools $1 at their last stored reserves and V3 price state (none left: empty). */
const RESTORE_RESERVES = updateSql(
  poolsTable,
  {
    reserve0: "coalesce(r.reserve0, 0)",
    reserve1: "coalesce(r.reserve1, 0)",
    reserveBlock: "coalesce(r.block_number, 0)",
    sqrtPriceX96: "r.sqrt_price_x96",
    tick: "r.tick",
    liquidity: "r.liquidity",
  },
  `from (select k.address, last.reserve0, last.reserve1, last.block_number, last.sqrt_price_x96, last.tick,
                last.liquidity
           from unnest($1::text[]) k(address)
           left join lateral (select ${r.reserve0} as reserve0, ${r.reserve1} as reserve1,
                                     ${r.blockNumber} as block_number,
                                     ${r.sqrtPriceX96} as sqrt_price_x96, ${r.tick} as tick, ${r.liquidity} as liquidity
                                from ${tableName(poolReserves)} pr where pr.${r.poolAddress} = k.address
                               order by pr.${r.blockNumber} desc, pr.${r.logIndex} desc limit 1) last on true) r`,
  `t.${pl.address} = r.address`,
);

const rb = names(reorgRollbacks);
/** The rollback's row in the log, after the last one; removed_at is the transaction's time, as its tombstones'. */
const LOG_ROLLBACK = insertSql(
  reorgRollbacks,
  { id: `coalesce(max(${rb.id}), 0) + 1`, ancestorBlock: "$1::bigint" },
  `from ${tableName(reorgRollbacks)}`,
);

/**
 * Rolls the indexed data back to `ancestor` (null: to before the start block) in one transaction:
 * deletes every fact above it and what was created above it (events leave tombstones), then
 * recomputes what those facts fed (pool reserves and V3 price state, V3 positions, balances, supplies, holder counts,
 * positions, liquidity stakes and candles of the tokens they touched, the activity and funders of the wallets they
 * named) by the same folds the forward sync runs.
 * Returns the state reloaded from the result; price-dependent figures are refreshed by the caller.
 */
export async function rollbackTo(tx: InTx, profile: ChainProfile, ancestor: BlockRef | null): Promise<ChainState> {
  const above = ancestor?.number ?? profile.startBlock - 1;
  const list = async (text: string) => (await tx.unsafe<{ a: string }[]>(text, [above], PREPARED)).map((r) => r.a);
  const tokens = await list(TOUCHED_TOKENS);
  const wallets = await list(TOUCHED_WALLETS);
  const pools = await list(TOUCHED_POOLS);
  const positions = await list(TOUCHED_POSITIONS);
  const candlesSince = await tx.unsafe<{ token: string; since: number }[]>(CANDLES_SINCE, [above], PREPARED);

  // What consumers of the stream read stays known as removed, and its ids stay taken.
  const copied = TOMBSTONE_COLUMNS.map((k) => ev[k]).join(", ");
  await tx.unsafe(
    `insert into ${tableName(eventTombstonesTable)} (${copied})
     select ${copied} from ${tableName(events)} where ${ev.blockNumber} > $1`,
    [above],
  );
  await tx.unsafe(LOG_ROLLBACK, [above]);
  const deadTokens = await list(DEAD_TOKENS);
  const deadPools = await list(DEAD_POOLS);
  // Children first. Quarantines found above the ancestor go too: the new branch quarantines again what is still poison
  // on it.
  for (const { table, above: block } of [...CHAIN_DERIVED_TABLES].reverse()) {
    // `block` was checked against its table where the list declares it.
    if (block)
      await tx.unsafe(`delete from ${tableName(table)} where ${(names(table) as Record<string, string>)[block]} > $1`, [
        above,
      ]);
  }
  const gone = [...deadTokens, ...deadPools];
  const rebuilt = [...new Set([...tokens, ...gone])];
  await tx.unsafe(deleteOf(tokenScores, "address"), [deadTokens]);
  for (const text of [
    deleteOf(balances, "tokenAddress"),
    deleteOf(walletPositions, "tokenAddress"),
    deleteOf(liquidityStakes, "tokenAddress"),
    deleteOf(holderCountHistory, "tokenAddress"),
  ]) {
    await tx.unsafe(text, [rebuilt]);
  }
  await tx.unsafe(RESET_SUPPLY, [rebuilt]);
  await tx.unsafe(RESET_LP_SUPPLY, [rebuilt]);
  await tx.unsafe(RESTORE_RESERVES, [pools]);
  await pipelined(tx, (w) => foldPositions(w, positions));
  await recomputeCandles(tx, candlesSince);

  const state = await ChainState.load(tx, profile);
  const stored = await tx.unsafe<StoredTransfer[]>(STORED_TRANSFERS, [rebuilt], PREPARED);
  const transfers: TransferRow[] = stored.map((t) => ({
    block: Number(t.blockNumber),
    logIndex: t.logIndex,
    token: t.tokenAddress,
    from: t.fromAddress,
    to: t.toAddress,
    amount: BigInt(t.amount),
    txHash: t.txHash,
    txFrom: t.txFrom ?? "",
    kind: t.kind,
    amountUsd: t.amountUsd,
    timestamp: t.time,
  }));
  const storedChanges = await tx.unsafe<StoredChange[]>(STORED_CHANGES, [rebuilt], PREPARED);
  const liquidity: LiquidityRow[] = storedChanges.map((c) => ({
    block: Number(c.blockNumber),
    logIndex: c.logIndex,
    txHash: c.txHash,
    wallet: c.wallet,
    pool: c.poolAddress,
    token: c.tokenAddress,
    direction: c.direction,
    units: BigInt(c.units),
    quoteUsd: c.quoteUsd,
  }));
  await applyTransfers(tx, state, transfers, "zero");
  await applyPositions(tx, state, { transfers, liquidity }, "zero");
  await upsertWalletActivity(tx, profile, { wallets });
  await linkFunders(tx, wallets);
  if (ancestor) await writeCheckpoint(tx, profile.chainId, ancestor, profile.finalityDepth);
  else await clearCheckpoint(tx, profile.chainId);
  return state;
}
