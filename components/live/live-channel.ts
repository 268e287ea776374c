import type { LiveMessage } from "@/lib/api/stream/live";

/** What a tab hears of the live feed: its messages, and whether the browser's connection to it is open. */
export type LiveEvent =
  | { kind: "hello"; message: Omit<LiveMessage, "tokens" | "wallets"> }
  | { kind: "moved"; message: LiveMessage }
  | { kind: "ping" }
  | { kind: "connection"; open: boolean };

/** A follower asks the leader how its connection stands (a tab opened after it connected). */
type Ask = { kind: "ask" };

const NAME = "onchain-intel-live";
export const LIVE_URL = "/api/live";
/** After a refused connection (EventSource gives up on a non-200), tries again this long later, doubling to the max. */
const RETRY_MS = 2_000;
const RETRY_MAX_MS = 30_000;

/**
 * One connection to the live feed per browser, not per tab: the tabs elect a leader with a Web
 * Lock (held until the tab closes; the next tab waiting for it takes over), the leader holds the
 * EventSource and relays what it hears to the other tabs over a BroadcastChannel. Where either
 * API is missing (a page served over plain HTTP from another host has no Web Locks), the tab
 * connects on its own. Returns the function that closes it.
 */
export function openLiveChannel(listener: (e: LiveEvent) => void): () => void {
  const locks = typeof navigator !== "undefined" && "locks" in navigator ? navigator.locks : undefined;
  const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(NAME);
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let retryMs = RETRY_MS;
  let closed = false;
  let stopLeading = () => {};

  const publish = (e: LiveEvent) => {
    if (locks && channel) channel.postMessage(e);
    listener(e);
  };

  function connect() {
    const es = new EventSource(LIVE_URL);
    source = es;
    es.onopen = () => {
      retryMs = RETRY_MS;
      publish({ kind: "connection", open: true });
    };
    es.onerror = () => {
      publish({ kind: "connection", open: false });
      // EventSource reconnects by itself after a dropped stream, not after a refusal (429, 5xx).
      if (es.readyState !== EventSource.CLOSED || closed) return;
      retry = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };
    const relay = (kind: "hello" | "moved") => (ev: MessageEvent<string>) =>
      publish({ kind, message: JSON.parse(ev.data) } as LiveEvent);
    es.addEventListener("hello", relay("hello"));
    es.addEventListener("moved", relay("moved"));
    es.addEventListener("ping", () => publish({ kind: "ping" }));
  }

  /** Holds the connection until the tab goes (the lock is released with the promise). */
  const lead = () =>
    new Promise<void>((release) => {
      if (closed) return release();
      stopLeading = release;
      connect();
    });

  if (locks && channel) {
    channel.onmessage = (ev: MessageEvent<LiveEvent | Ask>) => {
      const e = ev.data;
      if (e.kind !== "ask") listener(e);
      else if (source) channel.postMessage({ kind: "connection", open: source.readyState === EventSource.OPEN });
    };
    const abort = new AbortController();
    // Rejects with an AbortError when the tab closes the channel while waiting: nothing to do then.
    locks.request(NAME, { signal: abort.signal }, lead).catch(() => {});
    channel.postMessage({ kind: "ask" } satisfies Ask);
    return () => {
      closed = true;
      abort.abort();
      clearTimeout(retry);
      source?.close();
      stopLeading();
      channel.close();
    };
  }
  connect();
  return () => {
    closed = true;
    clearTimeout(retry);
    source?.close();
  };
}
