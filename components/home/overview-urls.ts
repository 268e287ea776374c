/** What the overview shows, as dashboard JSON routes (the page renders the same lists first). */
export const OVERVIEW_URLS = {
  trending: "/api/tokens?sort=trending&limit=8",
  newest: "/api/tokens?sort=newest&limit=8",
  events: "/api/events?limit=12",
  status: "/api/status",
} as const;
