import { z } from "zod";
import { DomainError, Forbidden, InvalidInput, NotFound } from "@/lib/domain/errors";

/**
 * The error codes of the public API: each one's HTTP status, and what it means as the OpenAPI
 * document says it (each operation lists its own codes there).
 */
const ERRORS = {
  INVALID_PARAMS: { status: 400, means: "a missing, malformed or unknown parameter (named in error.param)" },
  UNAUTHORIZED: { status: 401, means: "missing or invalid API key" },
  FORBIDDEN: {
    status: 403,
    means:
      "not available on the plan (a feature, a cap, or a key disabled because the account holds more than its plan " +
      "allows)",
  },
  NOT_FOUND: { status: 404, means: "the address is not indexed, or the resource does not exist" },
  METHOD_NOT_ALLOWED: { status: 405, means: "the path does not serve this method (see Allow)" },
  PAYLOAD_TOO_LARGE: { status: 413, means: "the request body is larger than 64 KiB" },
  RATE_LIMITED: { status: 429, means: "per-minute or per-day limit exceeded; see Retry-After" },
  SERVER_ERROR: { status: 500, means: "internal error; retry after a moment" },
} as const;

export type ErrorCode = keyof typeof ERRORS;
const CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** The error response's description in the OpenAPI document: its code and what it means. */
export function errorText(status: number): string {
  const code = CODES.find((c) => ERRORS[c].status === status);
  if (!code) throw new Error(`no error code answers ${status}`);
  return `${code}: ${ERRORS[code].means}`;
}

/** The error body, the one declaration the responses and the OpenAPI document share. */
export const errorBodySchema = z
  .object({
    error: z
      .object({
        code: z.enum(CODES).meta({ description: "Machine-readable error code" }),
        message: z.string().meta({ description: "What went wrong, for a person" }),
        param: z.string().optional().meta({ description: "The offending parameter, for INVALID_PARAMS" }),
        request_id: z.string().meta({ description: "Also in the X-Request-Id header" }),
      })
      .meta({ description: "The error" }),
  })
  .meta({ id: "Error" });

export type ErrorBody = z.infer<typeof errorBodySchema>;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERRORS[code].status;
  }
}

export const invalidParam = (param: string, message: string) => new ApiError("INVALID_PARAMS", message, param);

export const notFound = (what: string) => new ApiError("NOT_FOUND", `${what} is not indexed.`);

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
