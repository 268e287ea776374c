import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { balances } from "./balances";
import { blocks, syncState } from "./chain";
import { eventCounts, eventCumulativeCounts, events, eventTombstones, tokenTransfers } from "./events";
import { lpPositions, poolReserves, pools, positionEvents } from "./pools";
import { quarantinedEntities } from "./quarantine";
import { tokenScores, walletScores } from "./scores";
import { holderCountHistory, tokenMetrics, tokens } from "./tokens";
import { walletFunding, walletPositions, wallets } from "./wallets";

/**
 * A table the worker writes from chain data. `above`: the block column of a table whose rows
 * belong to one block (facts, and what was created there); a reorg rollback deletes its rows
 * above the common ancestor. The other tables are recomputed from the rows that remain
 * (worker/indexer/reorg.ts) or kept by triggers (event counts).
 */
export type ChainDerivedTable = { table: PgTable; above?: PgColumn };

/**
 * Every table written from chain data, parents before children: what a reorg rolls back, what
 * two indexings of the same chain must agree on (the crash tests' dump), what a fixture copies.
 * A new chain-derived table joins this list.
 */
export const CHAIN_DERIVED_TABLES: ChainDerivedTable[] = [
  { table: blocks, above: blocks.number },
  { table: tokens, above: tokens.createdBlock },
  { table: pools, above: pools.createdBlock },
  { table: poolReserves, above: poolReserves.blockNumber },
  { table: positionEvents, above: positionEvents.blockNumber },
  { table: lpPositions },
  { table: tokenTransfers, above: tokenTransfers.blockNumber },
  { table: events, above: events.blockNumber },
  { table: eventTombstones },
  { table: eventCounts },
  { table: eventCumulativeCounts },
  { table: walletFunding, above: walletFunding.blockNumber },
  { table: quarantinedEntities, above: quarantinedEntities.block },
  { table: balances },
  { table: holderCountHistory },
  { table: tokenMetrics },
  { table: wallets },
  { table: walletPositions },
  { table: tokenScores },
  { table: walletScores },
  { table: syncState },
];
