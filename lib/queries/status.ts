import { asc } from "drizzle-orm";
import type { Db } from "@/db/client";
import { syncState } from "@/db/schema";

/** A worker that has not written a heartbeat for this long is reported as down. */
const HEARTBEAT_STALE_MS = 30_000;

export async function getStatus(db: Db, now: Date) {
  const [s] = await db.select().from(syncState).orderBy(asc(syncState.chainId)).limit(1);
  if (!s) {
    return { chain_id: null, head_block: null, indexed_block: null, lag_blocks: null, lag_seconds: null, worker: { alive: false, heartbeat_at: null } };
  }
  const head = s.headBlock ?? s.indexedBlock;
  const lagSeconds =
    s.headBlockTime && s.indexedBlockTime ? Math.max(0, (s.headBlockTime.getTime() - s.indexedBlockTime.getTime()) / 1000) : null;
  return {
    chain_id: s.chainId,
    head_block: head,
    indexed_block: s.indexedBlock,
    indexed_block_time: s.indexedBlockTime?.toISOString() ?? null,
    lag_blocks: Math.max(0, head - s.indexedBlock),
    lag_seconds: lagSeconds,
    worker: {
      alive: !!s.heartbeatAt && now.getTime() - s.heartbeatAt.getTime() < HEARTBEAT_STALE_MS,
      heartbeat_at: s.heartbeatAt?.toISOString() ?? null,
    },
  };
}
