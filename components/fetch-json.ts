/** A refused request: the API error body's message, and the parameter it names (null when none). */
export class RequestRefused extends Error {
  constructor(
    message: string,
    readonly param: string | null,
  ) {
    super(message);
  }
}

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
  if (!res.ok) throw new RequestRefused(body?.error?.message ?? `Request failed (${res.status}).`, body?.error?.param ?? null);
  return body as T;
}
