import type { Sql } from "@/db/client";
import { PAUSE, type Pause } from "../derive/pausing";
import type { NewHeads } from "./new-heads";
import type { Tx } from "./sql";

const GAVE_WAY = "the refresh gave way to a new block";

/** How long a refresh's work holds the thread between two pauses (derive/pausing.ts). */
const PAUSE_EVERY_MS = 5;

/** A postgres.js query as the watch sees it: `active` while the server runs it. */
type Statement = { active?: boolean; cancel: () => Promise<void> };

/**
 * Lets a refresh give way to a new block at once: while the refresh runs, `newBlock` is asked on
 * the poll interval (a head read), and when it says yes the statement in flight is cancelled and
 * no further one starts, so the refresh's transaction fails and rolls back now rather than after
 * its current step.
 */
export class GiveWay {
  /** A new block was seen: the refresh's failure is giving way, not an error. */
  saw = false;
  /** Resolves when a new block is seen. */
  readonly seen: Promise<void>;
  private markSeen!: () => void;
  private readonly statements = new Set<Statement>();
  private readonly cancels: Promise<void>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private heldSince = performance.now();

  private readonly unsubscribe: () => void;

  /** `heads`: the node's announcements (new-heads.ts), on which it asks at once. */
  constructor(
    private readonly newBlock: () => Promise<boolean>,
    firstPollInMs: number,
    private readonly intervalMs: number,
    heads?: NewHeads,
  ) {
    this.seen = new Promise((resolve) => {
      this.markSeen = resolve;
    });
    this.schedule(firstPollInMs);
    this.unsubscribe = heads?.subscribe(() => this.saw || this.stopped || this.schedule(0)) ?? (() => {});
  }

  /** The transaction, its statements tracked so that they can be cancelled. */
  track(tx: Tx): Tx {
    return new Proxy(tx, {
      get: (target, prop, receiver) => {
        if (prop === PAUSE) return this.pause;
        if (prop !== "unsafe") return Reflect.get(target, prop, receiver);
        return (...args: Parameters<Tx["unsafe"]>) => {
          // Refused as a cancelled statement fails: later, not by a throw. A caller that starts several
          // statements at once (Promise.all over an array) would otherwise lose the failures of those
          // it started before, and their rejections would go unhandled (a crash).
          if (this.saw) return Promise.reject(new Error(GAVE_WAY)) as unknown as ReturnType<Tx["unsafe"]>;
          const q = target.unsafe(...args);
          this.statements.add(q as unknown as Statement);
          return q;
        };
      },
    });
  }

  /** Yields to the event loop if the work held the thread PAUSE_EVERY_MS; rejects once a new block was seen. */
  private readonly pause: Pause = async () => {
    if (!this.saw && performance.now() - this.heldSince >= PAUSE_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      this.heldSince = performance.now();
    }
    if (this.saw) throw new Error(GAVE_WAY);
  };

  /** Stops watching; waits until any cancel request was delivered, so none reaches a later statement. */
  async stop() {
    this.stopped = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled(this.cancels);
  }

  private schedule(ms: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
  }

  private async poll() {
    // A node that does not answer is the next cycle's to report; the refresh just goes on.
    const seen = await this.newBlock().catch(() => false);
    if (this.stopped) return;
    if (!seen) return this.schedule(this.intervalMs);
    this.saw = true;
    for (const s of this.statements) if (s.active) this.cancels.push(s.cancel());
    this.markSeen();
  }
}

/**
 * `work` in a transaction of its own, its statements tracked by `watch` (none: it never gives way), then `end`
 * (statements not to be cut off half way). Returns the work's result, or null as soon as the watch sees a new block:
 * the new block does not wait for the transaction to end. A cancel stops the statement in flight, but the work runs
 * on until its next statement (the rows a cancelled statement had sent are still parsed, those already read are still
 * scored: some 300 ms on a token with 10,000 swaps); it runs behind the new block instead, and its transaction rolls
 * back, even if the block was seen after the work's last statement.
 */
export async function transactionGivingWay<T>(
  sql: Sql,
  watch: GiveWay | null,
  work: (tx: Tx) => Promise<T>,
  end: (tx: Tx) => Promise<void>,
): Promise<T | null> {
  const run = sql.begin(async (tx) => {
    let result: T;
    try {
      result = await work(watch ? watch.track(tx) : tx);
    } finally {
      await watch?.stop();
    }
    if (watch?.saw) throw new Error(GAVE_WAY);
    await end(tx);
    return result;
  }) as Promise<T>;
  if (!watch) return run;
  // Settled after the race is decided when it gave way: its failure is expected, and observed here.
  run.catch(() => {});
  try {
    return await Promise.race([run, watch.seen.then(() => null)]);
  } catch (err) {
    if (!watch.saw) throw err;
    return null;
  }
}
