import type { Tx } from "../indexer/sql";

/**
 * A refresh's transaction that may give way to a new block (worker/indexer/give-way.ts) answers this
 * with its pause: yields to the event loop when the work has held the thread a while, so that the
 * block is heard, and rejects once the refresh gave way. A cancel stops a statement, not the scoring
 * of the rows it already read: without pauses, a block waited for that to end.
 */
export const PAUSE = Symbol("pause");

export type Pause = () => Promise<void>;

/** `fn` of each item in order; in a transaction that may give way, pausing between items. */
export async function mapPausing<T, R>(tx: Tx, items: readonly T[], fn: (item: T) => R): Promise<R[]> {
  const pause = (tx as unknown as { [PAUSE]?: Pause })[PAUSE];
  if (!pause) return items.map(fn);
  const out: R[] = [];
  for (const item of items) {
    await pause();
    out.push(fn(item));
  }
  return out;
}
