import type { Tx } from "./sql";
import { isoTime } from "./sql";

export type BlockRef = { number: number; hash: string; timestamp: number };

/** The last block whose data is committed; null before the first range. */
export async function readCheckpoint(tx: Tx, chainId: number): Promise<BlockRef | null> {
  const [row] = await tx<{ indexed_block: string; indexed_block_hash: string | null; time: number | null }[]>`
    select indexed_block, indexed_block_hash, extract(epoch from indexed_block_time)::float8 as time
      from sync_state where chain_id = ${chainId}`;
  // A row written only by the heartbeat has no hash: nothing is indexed yet.
  return row?.indexed_block_hash ? { number: Number(row.indexed_block), hash: row.indexed_block_hash, timestamp: row.time ?? 0 } : null;
}

/**
 * Moves the checkpoint, inside the transaction that wrote the data it covers, and bumps
 * data_version (API caches key on it). The finality depth travels with it: the API reports an
 * event `confirmed` at or below indexed_block - finality_depth.
 */
export async function writeCheckpoint(tx: Tx, chainId: number, block: BlockRef, finalityDepth: number) {
  await tx`
    insert into sync_state (chain_id, indexed_block, indexed_block_hash, indexed_block_time, finality_depth, data_version, updated_at)
    values (${chainId}, ${block.number}, ${block.hash}, ${isoTime(block.timestamp)}, ${finalityDepth}, 1, now())
    on conflict (chain_id) do update set indexed_block = excluded.indexed_block, indexed_block_hash = excluded.indexed_block_hash,
      indexed_block_time = excluded.indexed_block_time, finality_depth = excluded.finality_depth,
      data_version = sync_state.data_version + 1, updated_at = now()`;
}

/** For writes of chain-derived data that do not move the checkpoint (metric refreshes). */
export async function bumpDataVersion(tx: Tx, chainId: number) {
  await tx`update sync_state set data_version = data_version + 1, updated_at = now() where chain_id = ${chainId}`;
}

/** Forgets the checkpoint: a reorg below every stored block re-indexes from the start block. */
export async function clearCheckpoint(tx: Tx, chainId: number) {
  await tx`update sync_state set indexed_block = 0, indexed_block_hash = null, indexed_block_time = null,
             data_version = data_version + 1, updated_at = now() where chain_id = ${chainId}`;
}

/** The chain's head as a probe read it; `checkedAt`: when (Unix ms, the worker's clock). */
export type ProbedHead = { number: number; timestamp: number; checkedAt: number };

/**
 * Liveness, and the chain head when one was just read, for GET /v1/status; not chain-derived
 * data, so no version bump. Two writers report heads (the head probe, and the indexer when it
 * reaches the head): a head read earlier than the stored one never replaces it.
 */
export async function writeHeartbeat(tx: Tx, chainId: number, head: ProbedHead | null = null) {
  const checkedAt = head ? new Date(head.checkedAt).toISOString() : null;
  await tx`
    insert into sync_state (chain_id, heartbeat_at, head_block, head_block_time, head_checked_at, updated_at)
    values (${chainId}, now(), ${head?.number ?? null}, ${head ? isoTime(head.timestamp) : null}, ${checkedAt}, now())
    on conflict (chain_id) do update set heartbeat_at = now(),
      head_block = case when excluded.head_checked_at >= coalesce(sync_state.head_checked_at, '-infinity')
                        then excluded.head_block else sync_state.head_block end,
      head_block_time = case when excluded.head_checked_at >= coalesce(sync_state.head_checked_at, '-infinity')
                             then excluded.head_block_time else sync_state.head_block_time end,
      head_checked_at = greatest(excluded.head_checked_at, sync_state.head_checked_at)`;
}

/**
 * Counts indexing cycles failed in a row (GET /v1/status reports a loop that keeps failing);
 * a success resets the count. Writes nothing when a success follows a success.
 */
export async function recordCycle(tx: Tx, chainId: number, ok: boolean) {
  if (ok) {
    await tx`update sync_state set cycle_failures = 0 where chain_id = ${chainId} and cycle_failures <> 0`;
  } else {
    await tx`
      insert into sync_state (chain_id, cycle_failures, last_failure_at, updated_at) values (${chainId}, 1, now(), now())
      on conflict (chain_id) do update set cycle_failures = sync_state.cycle_failures + 1, last_failure_at = now()`;
  }
}
