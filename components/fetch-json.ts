import type { Refusal } from "@/lib/api/errors";

/**
 * A refused request: the API error body's message, the parameter it names (null when none),
 * the HTTP status and code, and Retry-After's seconds (null without one).
 */
export class RequestRefused extends Error {
  constructor(
    message: string,
    readonly param: string | null,
    readonly status = 0,
    readonly code: string | null = null,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }

  /** What a page's server was refused, as the client would have heard it from the JSON route. */
  static of(r: Refusal) {
    return new RequestRefused(r.message, r.param, r.status, r.code, r.retryAfter);
  }

  /** Sign in first: the view is an account's (lib/auth/market-access.ts). */
  get needsAccount() {
    return this.status === 401;
  }

  /** Over a rate limit: asking again before Retry-After only fails again. */
  get rateLimited() {
    return this.status === 429;
  }
}

/** A refusal that asking again cannot change (anything but a server error or a lost connection). */
export const isFinal = (err: unknown) => err instanceof RequestRefused && err.status >= 400 && err.status < 500;

const retryAfterOf = (res: Response) => {
  const seconds = Number(res.headers.get("retry-after"));
  return res.headers.has("retry-after") && Number.isFinite(seconds) ? seconds : null;
};

/** Calls a dashboard JSON route; a failure throws RequestRefused with the server's message (the API error body). */
export async function fetchJson<T>(url: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const method = init?.method ?? "GET";
  const res = await fetch(url, {
    method,
    // Writes are JSON, with or without a body: the routes refuse any other (lib/auth/route.ts).
    headers: method === "GET" ? undefined : { "Content-Type": "application/json" },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (res.status === 204) return undefined as T;
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const error = body?.error;
    const message = error?.message ?? `Request failed (${res.status}).`;
    throw new RequestRefused(message, error?.param ?? null, res.status, error?.code ?? null, retryAfterOf(res));
  }
  return body as T;
}
