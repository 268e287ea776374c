/**
 * The views every dashboard shows and keeps refreshing: the market overview and the unfiltered
 * event stream. Client components import these URLs, so this module holds no server code.
 */
export const OVERVIEW_URLS = {
  trending: "/api/tokens?sort=trending&limit=8",
  newest: "/api/tokens?sort=newest&limit=8",
  events: "/api/events?limit=12",
  status: "/api/status",
} as const;

/** The events page's first page without filters (components/events/stream-search.ts). */
export const STREAM_PAGE_SIZE = 50;
