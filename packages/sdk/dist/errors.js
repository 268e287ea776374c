/** What a non-JSON answer (a proxy's page, say) is taken for, by its status. */
const CODE_OF_STATUS = {
    400: "INVALID_PARAMS",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    413: "PAYLOAD_TOO_LARGE",
    429: "RATE_LIMITED",
};
/** An answer of the API other than a success: its status, and its error body's `code`, `param` and `request_id`. */
export class OnchainIntelError extends Error {
    status;
    code;
    param;
    requestId;
    retryAfter;
    name = "OnchainIntelError";
    constructor(status, code, message, 
    /** The offending parameter, for INVALID_PARAMS. */
    param, 
    /** The request's id (also the X-Request-Id header): quote it when reporting a problem. */
    requestId, 
    /** Seconds to wait before retrying, from Retry-After (429). */
    retryAfter) {
        super(message);
        this.status = status;
        this.code = code;
        this.param = param;
        this.requestId = requestId;
        this.retryAfter = retryAfter;
    }
    /** The error an API response stands for; `body` is its parsed JSON, if any. */
    static fromResponse(response, body) {
        const e = body
            ?.error;
        const code = typeof e?.code === "string" ? e.code : (CODE_OF_STATUS[response.status] ?? "SERVER_ERROR");
        const message = typeof e?.message === "string" ? e.message : `HTTP ${response.status} ${response.statusText}`.trim();
        const requestId = typeof e?.request_id === "string" ? e.request_id : response.headers.get("x-request-id");
        return new OnchainIntelError(response.status, code, message, typeof e?.param === "string" ? e.param : undefined, requestId, retryAfterSeconds(response));
    }
}
/** The request got no answer: the network failed, or the call's timeout passed. */
export class OnchainIntelConnectionError extends Error {
    name = "OnchainIntelConnectionError";
}
/** The call's timeout passed before an answer came (retries included). */
export class OnchainIntelTimeoutError extends OnchainIntelConnectionError {
    name = "OnchainIntelTimeoutError";
}
/** Retry-After in seconds (a number of seconds or an HTTP date), or null. */
export function retryAfterSeconds(response, now = Date.now()) {
    const value = response.headers.get("retry-after");
    if (value === null || value.trim() === "")
        return null;
    if (/^\d+$/.test(value.trim()))
        return Number(value);
    const at = Date.parse(value);
    return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
