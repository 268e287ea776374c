/** Calls a dashboard JSON route; a failure throws with the server's message (the API error body). */
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
  if (!res.ok) throw new Error(body?.error?.message ?? `Request failed (${res.status}).`);
  return body as T;
}
