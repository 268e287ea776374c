import type { Tx } from "../indexer/sql";

/**
 * A refresh's transaction that may give way to a new block (worker/indexer/give-way.ts) answers this
 * with its pause: yields to the event loop when the work has held the thread a while, so that the
 * block is heard, and rejects once the refresh gave way. A cancel stops a statement, not the scoring
 * of the rows it already read: without pauses, a block waited for that to end.
 */
export const PAUSE = Symbol("pause");

export type Pause = () => Promise<void>;

/**
 * `fn` of each item in order; in a transaction that may give way, pausing between items, and between
 * the steps of an `fn` that is a generator (one busy token's scoring holds the thread some 30 ms).
 */
export async function mapPausing<T, R>(
  tx: Tx,
  items: readonly T[],
  fn: (item: T) => R | Generator<void, R, void>,
): Promise<R[]> {
  const pause = (tx as unknown as { [PAUSE]?: Pause })[PAUSE];
  const out: R[] = [];
  for (const item of items) {
    await pause?.();
    const result = fn(item);
    if (!isSteps(result)) {
      out.push(result);
      continue;
    }
    for (let step = result.next(); ; step = result.next()) {
      if (step.done) {
        out.push(step.value);
        break;
      }
      await pause?.();
    }
  }
  return out;
}

const isSteps = <R>(x: R | Generator<void, R, void>): x is Generator<void, R, void> =>
  Object.prototype.toString.call(x) === "[object Generator]";
