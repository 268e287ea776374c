const LIMIT = "50";
export const STREAM_FILTERS = ["type", "token_address", "wallet_address"] as const;

/** The /api/events query of the events page from the page's own URL; the server renders it first. */
export function streamSearch(pageSearch: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams({ limit: LIMIT });
  for (const name of [...STREAM_FILTERS, "page"]) {
    const value = pageSearch.get(name);
    if (value) out.set(name, value);
  }
  return out;
}
