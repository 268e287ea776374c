import { fetchRange, type RangeData } from "../fetch";
import type { Indexer } from "../indexer";

/** Logs a range aims at: big enough to amortize round trips, small enough for short transactions. */
const TARGET_LOGS = 20_000;
/**
 * Blocks a range reads with their transactions: each block holding a log, and each block holding
 * a transaction for a profile that scans for payments. What a range costs is what it reads, not
 * the blocks it spans, which on a quiet chain are mostly empty.
 */
const MAX_READ_BLOCKS = 10_000;
const MAX_RANGE = 50_000;
/** How much larger than the last a range may be: the density it was sized by may change. */
const MAX_GROWTH = 4;

/**
 * Backfills [from, to] (final blocks) in ranges, fetching the next range while the current one
 * is written. The range size follows the density of logs (towards TARGET_LOGS) and of the blocks
 * read (at most MAX_READ_BLOCKS) and never exceeds what the provider last accepted.
 */
export async function syncHistorical(ix: Indexer, from: number, to: number) {
  const { rpc, profile } = ix;
  let size = Math.min(profile.initialBlockRange, rpc.rangeLimit);
  let next = from;
  const fetchNext = (): Promise<RangeData> | null => {
    if (next > to) return null;
    const start = next;
    const end = Math.min(to, start + size - 1);
    next = end + 1;
    return fetchRange(rpc, ix.state, profile, start, end, false).then((data) => {
      const blocks = end - start + 1;
      const forLogs = Math.round((blocks * TARGET_LOGS) / Math.max(data.logs.length, 1));
      const forReads = Math.round((blocks * MAX_READ_BLOCKS) / Math.max(data.blocks.size, 1));
      size = Math.max(1, Math.min(forLogs, forReads, blocks * MAX_GROWTH, MAX_RANGE, rpc.rangeLimit));
      return data;
    });
  };
  let pending = fetchNext();
  while (pending && !ix.signal?.aborted) {
    const data = await pending;
    pending = fetchNext();
    // A failed prefetch surfaces when awaited; until then it must not count as unhandled.
    pending?.catch(() => {});
    await ix.commit(data, false);
  }
}
