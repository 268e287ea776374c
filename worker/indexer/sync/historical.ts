import type { ChainProfile } from "../../profiles";
import { fetchRange } from "../fetch";
import { LogReads } from "../log-reads";
import type { RangeData } from "../range";
import type { Rpc } from "../rpc";
import type { ChainState } from "../state";

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

/** What a backfill reads through: `state()` is the state as the ranges written so far left it. */
export type HistoricalSource = { rpc: Rpc; profile: ChainProfile; state: () => ChainState; signal?: AbortSignal };

/**
 * The ranges of a backfill of [from, to] (final blocks), fetched and checked, in order: the next
 * range is fetched while the caller writes the one yielded. The range size follows the density of
 * logs (towards TARGET_LOGS) and of the blocks read (at most MAX_READ_BLOCKS) and never exceeds
 * what the provider last accepted; a range read by topic is sized by every log it read
 * (../log-reads.ts). Stops early once `signal` aborts.
 */
export async function* historicalRanges(source: HistoricalSource, from: number, to: number): AsyncGenerator<RangeData> {
  const { rpc, profile } = source;
  let size = Math.min(profile.initialBlockRange, rpc.rangeLimit);
  let next = from;
  const reads = new LogReads(rpc.addressChunkSize);
  /** Logs of ours per block in the last range. */
  let density = 0;
  const fetchNext = (): Promise<RangeData> | null => {
    if (next > to) return null;
    const start = next;
    const end = Math.min(to, start + size - 1);
    next = end + 1;
    const state = source.state();
    const blocks = end - start + 1;
    const plan = reads.plan(start, end, state.watchedCount(), density * blocks);
    return fetchRange(rpc, state, profile, start, end, false, plan).then((data) => {
      density = data.logs.length / blocks;
      const read = Math.max(data.logs.length, plan.read, 1);
      const forLogs = Math.round((blocks * TARGET_LOGS) / read);
      const forReads = Math.round((blocks * MAX_READ_BLOCKS) / Math.max(data.blocks.size, 1));
      size = Math.max(1, Math.min(forLogs, forReads, blocks * MAX_GROWTH, MAX_RANGE, rpc.rangeLimit));
      return data;
    });
  };
  let pending = fetchNext();
  while (pending && !source.signal?.aborted) {
    const data = await pending;
    pending = fetchNext();
    // A failed prefetch surfaces when awaited; until then it must not count as unhandled.
    pending?.catch(() => {});
    yield data;
  }
}
