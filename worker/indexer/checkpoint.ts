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
 * data_version (API caches key on it).
 */
export async function writeCheckpoint(tx: Tx, chainId: number, block: BlockRef) {
  await tx`
    insert into sync_state (chain_id, indexed_block, indexed_block_hash, indexed_block_time, data_version, updated_at)
    values (${chainId}, ${block.number}, ${block.hash}, ${isoTime(block.timestamp)}, 1, now())
    on conflict (chain_id) do update set indexed_block = excluded.indexed_block, indexed_block_hash = excluded.indexed_block_hash,
      indexed_block_time = excluded.indexed_block_time, data_version = sync_state.data_version + 1, updated_at = now()`;
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

/** Liveness and the chain head, for GET /v1/status; not chain-derived data, so no version bump. */
export async function writeHeartbeat(tx: Tx, chainId: number, head: number | null, headTime: number | null) {
  await tx`
    insert into sync_state (chain_id, heartbeat_at, head_block, head_block_time, updated_at)
    values (${chainId}, now(), ${head}, ${headTime === null ? null : isoTime(headTime)}, now())
    on conflict (chain_id) do update set heartbeat_at = now(),
      head_block = coalesce(excluded.head_block, sync_state.head_block),
      head_block_time = coalesce(excluded.head_block_time, sync_state.head_block_time)`;
}
