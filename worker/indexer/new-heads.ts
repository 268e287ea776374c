import { webSocket } from "viem";
import { log } from "@/lib/log";
import { sleep } from "../sleep";

/** Pause before subscribing again after the node refused or dropped the subscription. */
const RETRY_MS = 2_000;

/**
 * The node's announcements of new blocks (eth_subscribe "newHeads" over its WebSocket,
 * RPC_WS_URL), so the worker reads a block when it is announced rather than at its next poll.
 * The poll stays as it is: without a WebSocket, or while the subscription is down, the worker
 * waits the poll interval again. Of an announcement the worker takes only the block number, as the
 * head to fetch up to (the blocks themselves are fetched over RPC and checked as any others).
 */
export class NewHeads {
  private readonly listeners = new Set<() => void>();
  private readonly closed = new AbortController();
  private count = 0;
  private latest: number | null = null;

  constructor(wsUrl?: string) {
    if (wsUrl) void this.run(wsUrl);
  }

  private async run(wsUrl: string) {
    const transport = webSocket(wsUrl, { reconnect: false })({});
    const closed = new Promise<null>((resolve) =>
      this.closed.signal.addEventListener("abort", () => resolve(null), { once: true }),
    );
    let failing = false;
    while (!this.closed.signal.aborted) {
      const lost = new Promise<Error>((resolve) => {
        const onData = (data: { result?: { number?: unknown } } | undefined) => {
          failing = false;
          this.announce(blockNumber(data?.result?.number));
        };
        transport.value!.subscribe({ params: ["newHeads"], onData, onError: resolve }).catch(resolve);
      });
      const err = await Promise.race([lost, closed]);
      // viem keeps a socket until it is closed, even a dropped one: the next attempt opens a new one.
      await transport
        .value!.getRpcClient()
        .then((c) => c.close())
        .catch(() => {});
      if (!err) return;
      // One line per outage, not one per attempt.
      if (!failing)
        log.warn("newHeads subscription failed; polling meanwhile", { url: wsUrl, error: err.message.split("\n")[0] });
      failing = true;
      await sleep(RETRY_MS, this.closed.signal);
    }
  }

  private announce(number: number | null) {
    this.count++;
    this.latest = number;
    for (const l of [...this.listeners]) l();
  }

  /** Announcements so far: a wait given an earlier count ends at once. */
  get announced(): number {
    return this.count;
  }

  /** The block number of the last announcement; null if it had none that reads as one. */
  get head(): number | null {
    return this.latest;
  }

  /** Calls `listener` at each announcement until the returned function is called. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Waits `ms`, or less when a new head is announced (or was, after the count `since`) or `signal`
   * aborts; never rejects.
   */
  wait(ms: number, signal?: AbortSignal, since = this.count): Promise<void> {
    if (this.count > since) return Promise.resolve();
    const announced = new AbortController();
    const unsubscribe = this.subscribe(() => announced.abort());
    return sleep(ms, signal ? AbortSignal.any([signal, announced.signal]) : announced.signal).finally(unsubscribe);
  }

  close() {
    this.closed.abort();
    this.listeners.clear();
  }
}

function blockNumber(hex: unknown): number | null {
  if (typeof hex !== "string" || !/^0x[0-9a-f]{1,13}$/i.test(hex)) return null;
  return Number(hex);
}
