import type { PgTable } from "drizzle-orm/pg-core";
import { balances } from "./balances";
import { ohlcvCandles } from "./candles";
import { blocks, syncState } from "./chain";
import { eventCounts, eventCumulativeCounts, events, eventTombstones, reorgRollbacks, tokenTransfers } from "./events";
import { liquidityChanges, lpPositions, poolReserves, pools, positionEvents } from "./pools";
import { quarantinedEntities } from "./quarantine";
import { tokenScores, walletScores } from "./scores";
import { holderCountHistory, tokenMetrics, tokens, walletLaunchCounts } from "./tokens";
import { recentTraderFlows } from "./trader-flows";
import {
  firstQuotePayments,
  liquidityStakes,
  walletFunding,
  walletPositionCounts,
  walletPositions,
  wallets,
} from "./wallets";

/**
 * A table the worker writes from chain data. `above`: the block column (its property name) of a
 * table whose rows belong to one block (facts, and what was created there); a reorg rollback
 * deletes its rows above the common ancestor. The other tables are recomputed from the rows that remain
 * (worker/indexer/reorg.ts) or kept by triggers (event, position and launch counts).
 */
export type ChainDerivedTable = { table: PgTable; above?: string };

/** A chain-derived table and the property name of its block column, checked against the table. */
const derived = <T extends PgTable>(table: T, above?: keyof T["$inferSelect"] & string): ChainDerivedTable => ({
  table,
  above,
});

/**
 * Every table written from chain data, parents before children: what a reorg rolls back and
 * what two indexings of the same chain must agree on (the crash tests' dump). A new
 * chain-derived table joins this list.
 */
export const CHAIN_DERIVED_TABLES: ChainDerivedTable[] = [
  derived(blocks, "number"),
  derived(tokens, "createdBlock"),
  derived(pools, "createdBlock"),
  derived(poolReserves, "blockNumber"),
  derived(positionEvents, "blockNumber"),
  derived(lpPositions),
  derived(liquidityChanges, "blockNumber"),
  derived(tokenTransfers, "blockNumber"),
  derived(events, "blockNumber"),
  derived(eventTombstones),
  derived(reorgRollbacks),
  derived(eventCounts),
  derived(eventCumulativeCounts),
  derived(walletFunding, "blockNumber"),
  derived(firstQuotePayments, "blockNumber"),
  derived(quarantinedEntities, "block"),
  derived(balances),
  derived(holderCountHistory),
  derived(ohlcvCandles),
  derived(tokenMetrics),
  derived(recentTraderFlows),
  derived(wallets),
  derived(walletPositions),
  derived(liquidityStakes),
  derived(walletPositionCounts),
  derived(walletLaunchCounts),
  derived(tokenScores),
  derived(walletScores),
  derived(syncState),
];
