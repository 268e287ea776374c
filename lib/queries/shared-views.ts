/**
 * The views every dashboard shows and keeps refreshing: the market overview and the unfiltered
 * event stream. They are the same answer for every visitor (what the pages render anyway, from
 * the shared cache), so refreshing them is free; any other query of the dashboard's market
 * routes is metered (lib/auth/route.ts). Client components import these URLs, so this module
 * holds no server code.
 */
export const OVERVIEW_URLS = {
  trending: "/api/tokens?sort=trending&limit=8",
  newest: "/api/tokens?sort=newest&limit=8",
  events: "/api/events?limit=12",
  status: "/api/status",
} as const;

/** The events page's first page without filters (components/events/stream-search.ts). */
export const STREAM_PAGE_SIZE = 50;

const canonical = (url: URL) =>
  `${url.pathname}?${[...url.searchParams]
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join("&")}`;
const SHARED = new Set([...Object.values(OVERVIEW_URLS), `/api/events?limit=${STREAM_PAGE_SIZE}`].map((u) => canonical(new URL(u, "http://dashboard"))));

export const isSharedView = (url: URL): boolean => SHARED.has(canonical(url));
