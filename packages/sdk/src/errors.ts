import type { components } from "./generated/api.ts";

/** The API's error codes (the `code` of its error body). */
export type ErrorCode = components["schemas"]["Error"]["error"]["code"];

/** What a non-JSON answer (a proxy's page, say) is taken for, by its status. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
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
  override readonly name = "OnchainIntelError";
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** The offending parameter, for INVALID_PARAMS. */
    readonly param: string | undefined,
    /** The request's id (also the X-Request-Id header): quote it when reporting a problem. */
    readonly requestId: string | null,
    /** Seconds to wait before retrying, from Retry-After (429). */
    readonly retryAfter: number | null,
  ) {
    super(message);
  }

  /** The error an API response stands for; `body` is its parsed JSON, if any. */
  static fromResponse(response: Response, body: unknown): OnchainIntelError {
    const e = (body as { error?: { code?: unknown; message?: unknown; param?: unknown; request_id?: unknown } } | null)
      ?.error;
    const code =
      typeof e?.code === "string" ? (e.code as ErrorCode) : (CODE_OF_STATUS[response.status] ?? "SERVER_ERROR");
    const message =
      typeof e?.message === "string" ? e.message : `HTTP ${response.status} ${response.statusText}`.trim();
    const requestId = typeof e?.request_id === "string" ? e.request_id : response.headers.get("x-request-id");
    return new OnchainIntelError(
      response.status,
      code,
      message,
      typeof e?.param === "string" ? e.param : undefined,
      requestId,
      retryAfterSeconds(response),
    );
  }
}

/** The request got no answer: the network failed, or the call's timeout passed. */
export class OnchainIntelConnectionError extends Error {
  override readonly name: string = "OnchainIntelConnectionError";
}

/** The call's timeout passed before an answer came (retries included). */
export class OnchainIntelTimeoutError extends OnchainIntelConnectionError {
  override readonly name = "OnchainIntelTimeoutError";
}

/** Retry-After in seconds (a number of seconds or an HTTP date), or null. */
export function retryAfterSeconds(response: Response, now = Date.now()): number | null {
  const value = response.headers.get("retry-after");
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
