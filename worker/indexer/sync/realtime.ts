import { log } from "@/lib/log";
import { ChainMovedError, fetchRange, knownParent } from "../fetch";
import type { Indexer } from "../indexer";
import { findCommonAncestor } from "../reorg";

/** Blocks per live step; more than this behind, the next poll continues. */
const MAX_LIVE_RANGE = 100;

export type LiveStep = "indexed" | "idle" | "reorg" | "retry";

/**
 * One step of the live sync near the head: fetches every block after the checkpoint up to the
 * head, and writes them if they extend the indexed chain. If they do not (or the checkpoint
 * block itself changed), walks back to the common ancestor and rolls back to it.
 */
export async function syncLive(ix: Indexer, head: number): Promise<LiveStep> {
  const cp = ix.checkpoint;
  if (head <= cp.number) return (await rollBackIfOrphaned(ix)) ? "reorg" : "idle";
  const to = Math.min(head, cp.number + MAX_LIVE_RANGE);
  let data: Awaited<ReturnType<typeof fetchRange>>;
  try {
    data = await fetchRange(ix.rpc, ix.state, ix.profile, cp.number + 1, to, true);
  } catch (err) {
    if (!(err instanceof ChainMovedError)) throw err;
    await ix.reloadState(); // discovery may have learned tokens of a branch now gone
    return "retry";
  }
  const first = data.blocks.get(cp.number + 1)!;
  const extendsCheckpoint = knownParent(first) ? first.parentHash === cp.hash : await stillCanonical(ix);
  if (!extendsCheckpoint) {
    await ix.reloadState();
    await handleReorg(ix, cp.number);
    return "reorg";
  }
  await ix.commit(data, true);
  return "indexed";
}

/**
 * Makes sure the checkpoint block is still on the node's chain, rolling back to the common
 * ancestor if not (a restart after a reorg, or against a dev chain started anew). Returns
 * whether it rolled back.
 */
export async function rollBackIfOrphaned(ix: Indexer): Promise<boolean> {
  if (await stillCanonical(ix)) return false;
  await handleReorg(ix, ix.checkpoint.number);
  return true;
}

/** Whether the node still has the checkpoint block, by its hash. */
async function stillCanonical(ix: Indexer) {
  const [block] = await ix.rpc.getBlocks([ix.checkpoint.number], false);
  return block?.hash === ix.checkpoint.hash;
}

async function handleReorg(ix: Indexer, from: number) {
  const ancestor = await findCommonAncestor(ix.sql, ix.rpc, from);
  const depth = from - (ancestor?.number ?? ix.profile.startBlock - 1);
  if (depth > ix.profile.finalityDepth) {
    log.error("reorg deeper than the finality depth", { depth, finalityDepth: ix.profile.finalityDepth });
  }
  log.warn("reorg", { from, ancestor: ancestor?.number ?? null, depth });
  await ix.rollback(ancestor);
}
