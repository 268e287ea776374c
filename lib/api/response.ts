import type { NextRequest } from "next/server";
import { underDeadline } from "@/db/request-deadline";
import { config } from "@/lib/config";
import { randomBase62 } from "@/lib/keys/secret";
import { log } from "@/lib/log";
import { errorBody, timedOut, toApiError } from "./errors";
import { JsonBody } from "./json-body";

/**
 * The response core every JSON route answers through, the public API's wrapper (handler.ts) and
 * the dashboard's (lib/auth/route.ts) alike: the request id, the deadline, the JSON answer, and
 * the error body with the headers every response carries.
 */

/** A non-200 success: 201 with a body, or 204 without one. */
export class ApiResult {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const created = (body: unknown) => new ApiResult(201, body);
export const noContent = () => new ApiResult(204, null);

export const newRequestId = () => `req_${randomBase62(20)}`;

function respond(status: number, body: unknown, headers: Record<string, string>): Response {
  if (status === 204) return new Response(null, { status, headers });
  return new Response(body instanceof JsonBody ? body.bytes : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
  });
}

/**
 * The request deadline: past it the request answers 500, and the statements of its `work` stop
 * (db/request-deadline.ts: the running one cancelled, none sent after).
 */
export function withDeadline<T>(work: () => Promise<T>): Promise<T> {
  const passed = new AbortController();
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      passed.abort();
      reject(timedOut());
    }, config.REQUEST_TIMEOUT_MS);
  });
  return Promise.race([underDeadline(passed.signal, work), deadline]).finally(() => clearTimeout(timer));
}

/** The error body of any refusal or failure; a failure (5xx) is logged, its internals never sent. */
export function errorResponse(err: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  const apiError = toApiError(err);
  return respond(apiError.status, errorBody(apiError, requestId), {
    ...headers,
    ...apiError.headers,
    "X-Request-Id": requestId,
  });
}

export type Answer = { requestId: string; headers: Record<string, string> };

/**
 * Answers a request: `work`'s result under the deadline as JSON (an ApiResult its status, a
 * Response of its own, a stream, as it is), or its error as the error body; `headers` (filled by
 * `work` as it learns them: rate limits, the indexed block) go on either.
 */
export async function answer(req: NextRequest, work: (a: Answer) => Promise<unknown>): Promise<Response> {
  const requestId = newRequestId();
  const headers: Record<string, string> = { "X-Request-Id": requestId };
  try {
    const result = await withDeadline(() => work({ requestId, headers }));
    if (result instanceof ApiResult) return respond(result.status, result.body, headers);
    if (result instanceof Response) {
      for (const [name, value] of Object.entries(headers)) result.headers.set(name, value);
      return result;
    }
    return respond(200, result, headers);
  } catch (err) {
    const status = toApiError(err).status;
    if (status >= 500) {
      const cause = err instanceof Error && err.cause ? String(err.cause) : undefined;
      log.error("request failed", {
        request_id: requestId,
        method: req.method,
        path: new URL(req.url).pathname,
        error: String(err),
        cause,
      });
    }
    return errorResponse(err, requestId, headers);
  }
}
