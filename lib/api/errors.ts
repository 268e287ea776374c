import { DomainError, Forbidden, InvalidInput, NotFound } from "@/lib/domain/errors";

/** The error codes of the public API and their HTTP statuses (each operation lists its own in the OpenAPI document). */
export const ERROR_STATUS = {
  INVALID_PARAMS: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** A request body over 64 KiB. */
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const invalidParam = (param: string, message: string) => new ApiError("INVALID_PARAMS", message, param);

export const notFound = (what: string) => new ApiError("NOT_FOUND", `${what} is not indexed.`);

export type ErrorBody = {
  error: { code: ErrorCode; message: string; param?: string; request_id: string };
};

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.param ? { param: err.param } : {}),
      request_id: requestId,
    },
  };
}

/**
 * A refusal a page shows instead of its data (sign in first, or wait for the rate limit), as
 * the client hears it from a JSON route: the error body's code, message and parameter, the
 * status and Retry-After.
 */
export type Refusal = {
  status: number;
  code: ErrorCode;
  message: string;
  param: string | null;
  retryAfter: number | null;
};

export const refusalOf = (err: ApiError): Refusal => ({
  status: err.status,
  code: err.code,
  message: err.message,
  param: err.param ?? null,
  retryAfter: err.headers["Retry-After"] ? Number(err.headers["Retry-After"]) : null,
});

export const timedOut = () => new ApiError("SERVER_ERROR", "The request timed out. Retry after a moment.");

/** PostgreSQL's query_canceled: here, a statement that ran into the app's statement_timeout. */
const QUERY_CANCELED = "57014";

/** A domain error as the API's error: the one place where domain refusals become HTTP. */
function fromDomain(err: DomainError): ApiError {
  if (err instanceof InvalidInput) return invalidParam(err.param, err.message);
  if (err instanceof NotFound) return new ApiError("NOT_FOUND", err.message);
  if (err instanceof Forbidden) return new ApiError("FORBIDDEN", err.message, err.param);
  return new ApiError("SERVER_ERROR", "Internal error. Retry after a moment.");
}

/** Anything that is neither an ApiError nor a DomainError becomes a 500 that says nothing about internals. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainError) return fromDomain(err);
  if ((err as { code?: unknown } | null)?.code === QUERY_CANCELED) return timedOut();
  return new ApiError("SERVER_ERROR", "Internal error. Retry after a moment.");
}
