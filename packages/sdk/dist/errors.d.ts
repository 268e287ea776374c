import type { components } from "./generated/api.ts";
/** The API's error codes (the `code` of its error body). */
export type ErrorCode = components["schemas"]["Error"]["error"]["code"];
/** An answer of the API other than a success: its status, and its error body's `code`, `param` and `request_id`. */
export declare class OnchainIntelError extends Error {
    readonly status: number;
    readonly code: ErrorCode;
    /** The offending parameter, for INVALID_PARAMS. */
    readonly param: string | undefined;
    /** The request's id (also the X-Request-Id header): quote it when reporting a problem. */
    readonly requestId: string | null;
    /** Seconds to wait before retrying, from Retry-After (429). */
    readonly retryAfter: number | null;
    readonly name = "OnchainIntelError";
    constructor(status: number, code: ErrorCode, message: string, 
    /** The offending parameter, for INVALID_PARAMS. */
    param: string | undefined, 
    /** The request's id (also the X-Request-Id header): quote it when reporting a problem. */
    requestId: string | null, 
    /** Seconds to wait before retrying, from Retry-After (429). */
    retryAfter: number | null);
    /** The error an API response stands for; `body` is its parsed JSON, if any. */
    static fromResponse(response: Response, body: unknown): OnchainIntelError;
}
/** The request got no answer: the network failed, or the call's timeout passed. */
export declare class OnchainIntelConnectionError extends Error {
    readonly name: string;
}
/** The call's timeout passed before an answer came (retries included). */
export declare class OnchainIntelTimeoutError extends OnchainIntelConnectionError {
    readonly name = "OnchainIntelTimeoutError";
}
/** Retry-After in seconds (a number of seconds or an HTTP date), or null. */
export declare function retryAfterSeconds(response: Response, now?: number): number | null;
