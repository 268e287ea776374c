/** The chain's head as read from a node: block number, its time (Unix s), when it was read (Unix ms). */
export type ChainHead = { number: number; timestamp: number; checkedAt: number };

/** A probe answer is reused for this long, so a burst of status requests costs one RPC call. */
const CACHE_MS = 2_000;
/** A node slower than this counts as unreachable: the status answers in time either way. */
const TIMEOUT_MS = 1_500;

let last: { url: string; at: number; head: Promise<ChainHead | null> } | null = null;

/**
 * The web app's own reading of the chain head, for GET /v1/status when the worker's head probe
 * has gone quiet (the worker is down, or cannot reach the node): `eth_getBlockByNumber("latest")`
 * on `url`, cached for two seconds, one request in flight, null when the node does not answer
 * within the timeout. `now` is the request's time (lib/queries/clock.ts).
 */
export function probeChainHead(url: string, now: Date): Promise<ChainHead | null> {
  const at = now.getTime();
  if (last && last.url === url && at - last.at < CACHE_MS) return last.head;
  const head = readHead(url, at);
  last = { url, at, head };
  return head;
}

async function readHead(url: string, checkedAt: number): Promise<ChainHead | null> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["latest", false] }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { result?: { number?: string; timestamp?: string } | null };
    const number = Number(body.result?.number);
    const timestamp = Number(body.result?.timestamp);
    return Number.isSafeInteger(number) && Number.isSafeInteger(timestamp) ? { number, timestamp, checkedAt } : null;
  } catch {
    return null;
  }
}

/** Forgets the cached answer (tests). */
export function resetChainHeadProbe() {
  last = null;
}
