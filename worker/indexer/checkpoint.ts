import { insertSql, names, PREPARED, tableName, updateSql } from "@/db/bulk";
import { CHECKPOINT_CHANNEL, syncState } from "@/db/schema";
import type { Tx } from "./sql";
import { isoTime } from "./sql";

export type BlockRef = { number: number; hash: string; timestamp: number };

const c = names(syncState);
const READ_CHECKPOINT = `select ${c.indexedBlock} as "indexedBlock", ${c.indexedBlockHash} as "indexedBlockHash",
  extract(epoch from ${c.indexedBlockTime})::float8 as time from ${tableName(syncState)} where ${c.chainId} = $1`;
/** The checkpoint's columns; the block number as postgres.js reads int8 (a string), the time in Unix seconds. */
type StoredCheckpoint = Pick<typeof syncState.$inferSelect, "indexedBlockHash"> & {
  indexedBlock: string;
  time: number | null;
};

/** The last block whose data is committed; null before the first range. */
export async function readCheckpoint(tx: Tx, chainId: number): Promise<BlockRef | null> {
  const [row] = await tx.unsafe<StoredCheckpoint[]>(READ_CHECKPOINT, [chainId], PREPARED);
  // A row written only by the heartbeat has no hash: nothing is indexed yet.
  return row?.indexedBlockHash
    ? { number: Number(row.indexedBlock), hash: row.indexedBlockHash, timestamp: row.time ?? 0 }
    : null;
}

const ofChain = `t.${c.chainId} = $1`;
const bump = (stored: string) => `${stored} + 1`;
const now = () => "now()";

const WRITE_CHECKPOINT = insertSql(
  syncState,
  {
    chainId: "$1",
    indexedBlock: "$2",
    indexedBlockHash: "$3",
    indexedBlockTime: "$4",
    finalityDepth: "$5",
    dataVersion: "1",
    updatedAt: "now()",
  },
  "",
  {
    target: ["chainId"],
    action: ["indexedBlock", "indexedBlockHash", "indexedBlockTime", "finalityDepth"],
    set: { dataVersion: bump, updatedAt: now },
  },
);

/**
 * Tells the listeners of CHECKPOINT_CHANNEL that the checkpoint moved to `block`. Inside the
 * transaction that moves it: PostgreSQL delivers the notification when (and only if) it commits,
 * so a listener that reads on it sees the data.
 */
async function notifyCheckpoint(tx: Tx, block: number) {
  await tx.unsafe("select pg_notify($1, $2)", [CHECKPOINT_CHANNEL, String(block)], PREPARED);
}

/**
 * Moves the checkpoint, inside the transaction that wrote the data it covers, and bumps
 * data_version (API caches key on it). The finality depth travels with it: the API reports an
 * event `confirmed` at or below indexed_block - finality_depth.
 */
export async function writeCheckpoint(tx: Tx, chainId: number, block: BlockRef, finalityDepth: number) {
  await tx.unsafe(
    WRITE_CHECKPOINT,
    [chainId, block.number, block.hash, isoTime(block.timestamp), finalityDepth],
    PREPARED,
  );
  await notifyCheckpoint(tx, block.number);
}

const BUMP_DATA_VERSION = updateSql(
  syncState,
  { dataVersion: bump(`t.${c.dataVersion}`), updatedAt: "now()" },
  "",
  ofChain,
);

/** For writes of chain-derived data that do not move the checkpoint (metric refreshes). */
export async function bumpDataVersion(tx: Tx, chainId: number) {
  await tx.unsafe(BUMP_DATA_VERSION, [chainId], PREPARED);
}

const CLEAR_CHECKPOINT = updateSql(
  syncState,
  {
    indexedBlock: "0",
    indexedBlockHash: "null",
    indexedBlockTime: "null",
    dataVersion: bump(`t.${c.dataVersion}`),
    updatedAt: "now()",
  },
  "",
  ofChain,
);

/** Forgets the checkpoint: a reorg below every stored block re-indexes from the start block. */
export async function clearCheckpoint(tx: Tx, chainId: number) {
  await tx.unsafe(CLEAR_CHECKPOINT, [chainId], PREPARED);
  await notifyCheckpoint(tx, 0);
}

/** The chain's head as a probe read it; `checkedAt`: when (Unix ms, the worker's clock). */
export type ProbedHead = { number: number; timestamp: number; checkedAt: number };

/** Whether the head being written was read no earlier than the stored one. */
const newerHead = `excluded.${c.headCheckedAt} >= coalesce(t.${c.headCheckedAt}, '-infinity')`;
const ifNewer = (stored: string, probed: string) => `case when ${newerHead} then ${probed} else ${stored} end`;

const WRITE_HEARTBEAT = insertSql(
  syncState,
  {
    chainId: "$1",
    heartbeatAt: "now()",
    headBlock: "$2",
    headBlockTime: "$3",
    headCheckedAt: "$4",
    updatedAt: "now()",
  },
  "",
  {
    target: ["chainId"],
    action: [],
    set: {
      heartbeatAt: now,
      headBlock: ifNewer,
      headBlockTime: ifNewer,
      headCheckedAt: (stored, probed) => `greatest(${probed}, ${stored})`,
    },
  },
);

/**
 * Liveness, and the chain head when one was just read, for GET /v1/status; not chain-derived
 * data, so no version bump. Two writers report heads (the head probe, and the indexer when it
 * reaches the head): a head read earlier than the stored one never replaces it.
 */
export async function writeHeartbeat(tx: Tx, chainId: number, head: ProbedHead | null = null) {
  const checkedAt = head ? new Date(head.checkedAt).toISOString() : null;
  await tx.unsafe(
    WRITE_HEARTBEAT,
    [chainId, head?.number ?? null, head ? isoTime(head.timestamp) : null, checkedAt],
    PREPARED,
  );
}

const CYCLE_SUCCEEDED = updateSql(
  syncState,
  { consecutiveFailures: "0" },
  "",
  `${ofChain} and t.${c.consecutiveFailures} <> 0`,
);
const CYCLE_FAILED = insertSql(
  syncState,
  { chainId: "$1", consecutiveFailures: "1", lastFailureAt: "now()", updatedAt: "now()" },
  "",
  {
    target: ["chainId"],
    action: [],
    set: { consecutiveFailures: bump, lastFailureAt: now },
  },
);

/**
 * Counts indexing cycles failed in a row (GET /v1/status reports a loop that keeps failing);
 * a success resets the count. Writes nothing when a success follows a success.
 */
export async function recordCycle(tx: Tx, chainId: number, ok: boolean) {
  await tx.unsafe(ok ? CYCLE_SUCCEEDED : CYCLE_FAILED, [chainId], PREPARED);
}
