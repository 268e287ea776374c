import { OnchainIntelConnectionError, OnchainIntelTimeoutError, retryAfterSeconds } from "./errors.ts";

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export type RetryEvent = {
  /** 1 for the first retry. */
  attempt: number;
  /** How long the client waits before it: Retry-After for a 429, backoff with jitter otherwise. */
  waitMs: number;
  reason: "rate_limited" | "server_error" | "network_error";
  /** The status that is retried (none for a network error). */
  status?: number;
  method: string;
  url: string;
};

/** Per-call options: the last argument of every method. */
export type CallOptions = {
  /** Aborts the call (and any wait between its retries). */
  signal?: AbortSignal;
  /** Milliseconds each attempt may take to answer; overrides the client's `timeout`. */
  timeout?: number;
  /** Retries after the first attempt; overrides the client's `maxRetries`. */
  maxRetries?: number;
  /** Called with the final HTTP response, e.g. to read its X-Indexed-Block or X-RateLimit-* headers. */
  onResponse?: (response: Response) => void;
};

export type TransportOptions = {
  fetch: (request: Request) => Promise<Response>;
  timeout: number;
  maxRetries: number;
  /** The longest Retry-After honoured; a longer one (a daily limit) is thrown at once. */
  maxRetryWait: number;
  sleep: Sleep;
  random: () => number;
  onRetry?: (event: RetryEvent) => void;
};

/** Methods safe to send again after a server error or a lost connection: they change nothing twice. */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** Exponential backoff with jitter: between half and all of 500 ms × 2^retry, at most 8 s. */
export function backoffMs(retry: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * How long to wait before sending again, or null not to. A 429 is retried for every method (the
 * API refuses it before doing anything) after its Retry-After; a server error only for an
 * idempotent method, after a backoff.
 */
export function retryWaitMs(
  response: Response,
  method: string,
  retry: number,
  t: Pick<TransportOptions, "maxRetryWait" | "random">,
): number | null {
  if (response.status === 429) {
    const seconds = retryAfterSeconds(response);
    const wait = seconds === null ? backoffMs(retry, t.random) : seconds * 1000;
    return wait <= t.maxRetryWait ? wait : null;
  }
  if (RETRIED_STATUSES.has(response.status) && IDEMPOTENT.has(method)) return backoffMs(retry, t.random);
  return null;
}

/** An attempt's signal: aborted by the caller's signal, or with a timeout error after `timeout` ms. */
function attemptSignal(timeout: number, outer: AbortSignal | undefined): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new OnchainIntelTimeoutError(`No answer within ${timeout} ms.`)),
    timeout,
  );
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

/**
 * Rejects with the signal's reason when it aborts. The timeout must not rest on the fetch alone:
 * a custom fetch may ignore the signal, and undici's Request follows it only weakly, so a
 * request nothing else holds can be collected and its abort never heard.
 */
function rejectedOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** Sends `request`, retrying as `retryWaitMs` says; the final response is returned whatever its status. */
export async function send(request: Request, t: TransportOptions, call: CallOptions = {}): Promise<Response> {
  const maxRetries = call.maxRetries ?? t.maxRetries;
  for (let retry = 0; ; retry++) {
    const attempt = attemptSignal(call.timeout ?? t.timeout, call.signal);
    let response: Response;
    try {
      response = await Promise.race([
        t.fetch(new Request(request.clone(), { signal: attempt.signal })),
        rejectedOnAbort(attempt.signal),
      ]);
    } catch (err) {
      if (call.signal?.aborted) throw call.signal.reason;
      const reason = attempt.signal.reason instanceof OnchainIntelTimeoutError ? attempt.signal.reason : undefined;
      const error =
        reason ??
        new OnchainIntelConnectionError(`${request.method} ${request.url} failed: ${String(err)}`, { cause: err });
      if (!IDEMPOTENT.has(request.method) || retry >= maxRetries) throw error;
      await wait(t, call, {
        attempt: retry + 1,
        waitMs: backoffMs(retry, t.random),
        reason: "network_error",
        method: request.method,
        url: request.url,
      });
      continue;
    } finally {
      attempt.done();
    }
    const waitMs = retry < maxRetries ? retryWaitMs(response, request.method, retry, t) : null;
    if (waitMs === null) {
      call.onResponse?.(response);
      return response;
    }
    await response.body?.cancel();
    const reason = response.status === 429 ? "rate_limited" : "server_error";
    await wait(t, call, {
      attempt: retry + 1,
      waitMs,
      reason,
      status: response.status,
      method: request.method,
      url: request.url,
    });
  }
}

async function wait(t: TransportOptions, call: CallOptions, event: RetryEvent) {
  t.onRetry?.(event);
  await t.sleep(event.waitMs, call.signal);
}
