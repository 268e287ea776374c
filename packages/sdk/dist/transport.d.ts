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
export declare const defaultSleep: Sleep;
/** Exponential backoff with jitter: between half and all of 500 ms × 2^retry, at most 8 s. */
export declare function backoffMs(retry: number, random: () => number): number;
/**
 * How long to wait before sending again, or null not to. A 429 is retried for every method (the
 * API refuses it before doing anything) after its Retry-After; a server error only for an
 * idempotent method, after a backoff.
 */
export declare function retryWaitMs(response: Response, method: string, retry: number, t: Pick<TransportOptions, "maxRetryWait" | "random">): number | null;
/** Sends `request`, retrying as `retryWaitMs` says; the final response is returned whatever its status. */
export declare function send(request: Request, t: TransportOptions, call?: CallOptions): Promise<Response>;
