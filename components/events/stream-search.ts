import { STREAM_PAGE_SIZE } from "@/lib/queries/shared-views";

export const STREAM_FILTERS = ["type", "token_address", "wallet_address", "pool_address"] as const;

/**
 * The /api/events query of the events page from the page's own URL; the server renders it first.
 * Addresses lowercase, as the API answers them: one spelling, one shared view.
 */
export function streamSearch(pageSearch: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams({ limit: String(STREAM_PAGE_SIZE) });
  for (const name of [...STREAM_FILTERS, "page"]) {
    const value = pageSearch.get(name);
    if (value) out.set(name, name.endsWith("_address") ? value.toLowerCase() : value);
  }
  return out;
}
