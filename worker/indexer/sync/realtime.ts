import type { Sql } from "@/db/client";
import { log } from "@/lib/log";
import type { ChainProfile } from "../../profiles";
import type { BlockRef } from "../checkpoint";
import { ChainMovedError, fetchRange, knownParent } from "../fetch";
import type { RangeData } from "../range";
import { findCommonAncestor } from "../reorg";
import type { Rpc } from "../rpc";
import type { ChainState } from "../state";

/** Blocks per live step; more than this behind, the next poll continues. */
const MAX_LIVE_RANGE = 100;

export type LiveStep = "indexed" | "idle" | "reorg" | "retry";

/**
 * What the live sync found near the head: blocks that extend the checkpoint (`indexed`, to write),
 * nothing new (`idle`), a reorg with the common ancestor to roll back to (null: before the start
 * block), or a chain that moved while it was read (`retry`: discovery may have learnt tokens of a
 * branch now gone, so the state is to be reloaded).
 */
export type LiveFind =
  | { step: "indexed"; data: RangeData }
  | { step: "idle" | "retry" }
  | { step: "reorg"; ancestor: BlockRef | null };

/** What the live sync reads: the database's blocks (for a reorg's walk back) and the node, from the checkpoint. */
export type LiveSource = { sql: Sql; rpc: Rpc; profile: ChainProfile; state: ChainState; checkpoint: BlockRef };

/**
 * One step of the live sync near the head: fetches every block after the checkpoint up to the
 * head, and returns them if they extend the indexed chain. If they do not (or the checkpoint
 * block itself changed), walks back to the common ancestor.
 */
export async function findLive(source: LiveSource, head: number): Promise<LiveFind> {
  const { checkpoint: cp } = source;
  if (head <= cp.number) {
    const orphaned = await orphanedCheckpoint(source);
    return orphaned ? { step: "reorg", ancestor: orphaned.ancestor } : { step: "idle" };
  }
  const to = Math.min(head, cp.number + MAX_LIVE_RANGE);
  let data: RangeData;
  try {
    data = await fetchRange(source.rpc, source.state, source.profile, cp.number + 1, to, true);
  } catch (err) {
    if (!(err instanceof ChainMovedError)) throw err;
    return { step: "retry" };
  }
  const first = data.blocks.get(cp.number + 1)!;
  const extendsCheckpoint = knownParent(first) ? first.parentHash === cp.hash : await stillCanonical(source);
  if (!extendsCheckpoint) return { step: "reorg", ancestor: await reorgAncestor(source, cp.number) };
  return { step: "indexed", data };
}

/**
 * Whether the checkpoint block has left the node's chain (a restart after a reorg, or against a
 * dev chain started anew), and if so the common ancestor to roll back to; null while it is still there.
 */
export async function orphanedCheckpoint(source: LiveSource): Promise<{ ancestor: BlockRef | null } | null> {
  if (await stillCanonical(source)) return null;
  return { ancestor: await reorgAncestor(source, source.checkpoint.number) };
}

/** Whether the node still has the checkpoint block, by its hash. */
async function stillCanonical({ rpc, checkpoint }: LiveSource) {
  const [block] = await rpc.getBlocks([checkpoint.number], false);
  return block?.hash === checkpoint.hash;
}

async function reorgAncestor({ sql, rpc, profile }: LiveSource, from: number): Promise<BlockRef | null> {
  const ancestor = await findCommonAncestor(sql, rpc, from);
  const depth = from - (ancestor?.number ?? profile.startBlock - 1);
  if (depth > profile.finalityDepth) {
    log.error("reorg deeper than the finality depth", { depth, finalityDepth: profile.finalityDepth });
  }
  log.warn("reorg", { from, ancestor: ancestor?.number ?? null, depth });
  return ancestor;
}
