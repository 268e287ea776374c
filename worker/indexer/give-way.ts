import type { NewHeads } from "./new-heads";
import type { Tx } from "./sql";

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
  private readonly statements = new Set<Statement>();
  private readonly cancels: Promise<void>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  private readonly unsubscribe: () => void;

  /** `heads`: the node's announcements (new-heads.ts), on which it asks at once. */
  constructor(
    private readonly newBlock: () => Promise<boolean>,
    firstPollInMs: number,
    private readonly intervalMs: number,
    heads?: NewHeads,
  ) {
    this.schedule(firstPollInMs);
    this.unsubscribe = heads?.subscribe(() => this.saw || this.stopped || this.schedule(0)) ?? (() => {});
  }

  /** The transaction, its statements tracked so that they can be cancelled. */
  track(tx: Tx): Tx {
    return new Proxy(tx, {
      get: (target, prop, receiver) => {
        if (prop !== "unsafe") return Reflect.get(target, prop, receiver);
        return (...args: Parameters<Tx["unsafe"]>) => {
          // Refused as a cancelled statement fails: later, not by a throw. A caller that starts several
          // statements at once (Promise.all over an array) would otherwise lose the failures of those
          // it started before, and their rejections would go unhandled (a crash).
          if (this.saw)
            return Promise.reject(new Error("the refresh gave way to a new block")) as unknown as ReturnType<
              Tx["unsafe"]
            >;
          const q = target.unsafe(...args);
          this.statements.add(q as unknown as Statement);
          return q;
        };
      },
    });
  }

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
  }
}
