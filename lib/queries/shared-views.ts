import { CLASSIFICATIONS, DIRECTIONS, EVENT_TYPES, OHLCV_INTERVALS, TOKEN_SORTS } from "@/lib/domain/vocab";

/**
 * The shared views: the bounded set of market views anyone may read without an account, free
 * and unlimited, because they are the same answer for every visitor and each is loaded at most
 * once per data version (lib/api/market-reads.ts, shared-cache.ts): the lists' first pages in
 * each sort (and each event type, each token's and wallet's events), each token's chart in each
 * timeframe, the status. The other views of the same lists (filters, pages past the first,
 * longer pages) are an account's, counted against its plan; any other market read is metered
 * per account, or per client address without one (lib/auth/market-access.ts). Client
 * components import these URLs and limits, so this module holds no server code.
 */
export const OVERVIEW_URLS = {
  trending: "/api/tokens?sort=trending&limit=8",
  newest: "/api/tokens?sort=newest&limit=8",
  events: "/api/events?limit=12",
  status: "/api/status",
} as const;

/** The events page's first page without filters (components/events/stream-search.ts). */
export const STREAM_PAGE_SIZE = 50;
/** The longest first page of a list that is shared (the explorer's default page). */
export const SHARED_PAGE_SIZE = 50;
/** The token page's chart: a timeframe's latest candles (components/charts/candles.ts). */
export const CHART_CANDLES = 96;

/** Which values a parameter of a shared view may take; a parameter not named makes a view unshared. */
type Rule = (value: string) => boolean;
const oneOf =
  (values: readonly (string | number)[]): Rule =>
  (v) =>
    values.some((allowed) => String(allowed) === v);
const upTo =
  (max: number): Rule =>
  (v) =>
    /^[1-9]\d{0,2}$/.test(v) && Number(v) <= max;
/** Lowercase only, as the pages link them: one spelling, one cache entry. */
const address: Rule = (v) => /^0x[0-9a-f]{40}$/.test(v);
const firstPage = oneOf([1]);

type View = { path: RegExp; params: Record<string, Rule>; also?: (search: URLSearchParams) => boolean };

/** The market routes whose views are either shared or an account's. */
const LISTS: View[] = [
  { path: /^\/api\/status$/, params: {} },
  {
    path: /^\/api\/tokens$/,
    params: { sort: oneOf(TOKEN_SORTS), limit: upTo(SHARED_PAGE_SIZE), page: firstPage },
  },
  {
    path: /^\/api\/events$/,
    params: {
      type: oneOf(EVENT_TYPES),
      token_address: address,
      wallet_address: address,
      // The token page's trades list filters by side and by wallet class, and links each pool's
      // events: a few views per token.
      pool_address: address,
      direction: oneOf(DIRECTIONS),
      wallet_classification: oneOf(CLASSIFICATIONS),
      limit: upTo(SHARED_PAGE_SIZE),
      page: firstPage,
    },
    // One token's or one wallet's events, not the events of a wallet in a token.
    also: (search) => !(search.has("token_address") && search.has("wallet_address")),
  },
  {
    path: /^\/api\/tokens\/0x[0-9a-f]{40}\/ohlcv$/,
    params: { interval: oneOf(Object.keys(OHLCV_INTERVALS)), limit: oneOf([CHART_CANDLES]) },
  },
];

/**
 * What reading a dashboard market route's view takes: nothing (`shared`), a signed-in account
 * whose plan it counts against (`account`: filters, deep pages, long pages), or a request from
 * the plan's limits, the client address's without an account (`metered`: routes with no shared
 * views, such as search).
 */
export type ViewAccess = "shared" | "account" | "metered";

export function viewAccess(url: URL): ViewAccess {
  const view = LISTS.find((v) => v.path.test(url.pathname));
  if (!view) return "metered";
  const names = [...url.searchParams.keys()];
  const shared =
    new Set(names).size === names.length &&
    names.every((name) => Object.hasOwn(view.params, name) && view.params[name](url.searchParams.get(name)!)) &&
    (view.also?.(url.searchParams) ?? true);
  return shared ? "shared" : "account";
}

/** A path and query of a market route as a URL, for viewAccess. */
export const routeUrl = (path: string): URL => new URL(path, "http://dashboard");

export const isSharedView = (url: URL): boolean => viewAccess(url) === "shared";
