import type { Db } from "@/db/client";
import { readOn } from "@/db/read-replicas";
import { requestTime } from "@/lib/queries/clock";
import { listLaunches } from "@/lib/queries/launches";
import { tokenOhlcv } from "@/lib/queries/ohlcv";
import { listPools } from "@/lib/queries/pools";
import { listPositions } from "@/lib/queries/positions";
import { getTokenScore, getWalletScore } from "@/lib/queries/scores";
import { search } from "@/lib/queries/search";
import { canonicalSearch, polled, sharedRead } from "@/lib/queries/shared-cache";
import { isSharedView, routeUrl } from "@/lib/queries/shared-views";
import { getStatus } from "@/lib/queries/status";
import { currentDataVersion, getTokenProfile } from "@/lib/queries/tokens";
import { tradesSearch } from "@/lib/queries/trades-search";
import { getWalletProfile } from "@/lib/queries/wallets";
import { eventListFromSearch, tokenListFromSearch } from "./lists";
import { parseQuery } from "./params";
import { ohlcvQuery } from "./schemas/market";
import { searchQuery } from "./schemas/search";

/**
 * The market data of the public pages and the dashboard's market routes. A shared view
 * (lib/queries/shared-views.ts) is read through the cache every visitor shares, once per data
 * version; any other view is read for its own request, which the caller has authorized and
 * metered (lib/auth/market-access.ts): these functions check nobody.
 */

/** A new block is in the shared views within this long of the worker writing it. */
const VERSION_POLL_MS = 500;
/** Each database's own (a replica's behind the primary's), polled apart: a view is loaded from the one it is of. */
const dataVersion = polled("dataVersion", currentDataVersion, VERSION_POLL_MS);
/**
 * The data version the shared views answer at now (the dashboard's live feed says when it moves):
 * that of the database a read would go to, a replica's when there are any.
 */
export const sharedDataVersion = () => readOn(dataVersion);
/** The status reports the indexer's liveness, which moves without the data version. */
const STATUS_MAX_AGE_MS = 2_000;

/** A view read from one database (a replica when there are any: db/read-replicas.ts), its version and its data. */
const shared = <T>(key: string, load: (db: Db) => Promise<T>, maxAgeMs?: number): Promise<T> =>
  readOn(async (db) => sharedRead(key, await dataVersion(db), () => load(db), maxAgeMs));

/** The view of a market route's `path` (with its query): from the shared cache when it is a shared view. */
function view<T>(path: string, load: (db: Db) => Promise<T>, maxAgeMs?: number): Promise<T> {
  return isSharedView(routeUrl(path)) ? shared(path, load, maxAgeMs) : readOn(load);
}

export const marketTokens = (search: URLSearchParams) =>
  view(`/api/tokens?${canonicalSearch(search)}`, (db) => tokenListFromSearch(db, search, requestTime()));

export const marketEvents = (search: URLSearchParams) => {
  const path = `/api/events?${canonicalSearch(search)}`;
  return view(path, (db) => eventListFromSearch(db, search));
};

/** GET /v1/search's answer for the header's search box; invalid parameters throw INVALID_PARAMS. */
export const marketSearch = (params: URLSearchParams) => {
  const q = parseQuery(new URL(`http://dashboard/?${params}`), searchQuery);
  return readOn((db) => search(db, q));
};

export const marketStatus = () => view("/api/status", (db) => getStatus(db, requestTime()), STATUS_MAX_AGE_MS);

/**
 * GET /v1/tokens/{address}/ohlcv's answer for the token page's chart, null for an unindexed token; invalid parameters
 * throw INVALID_PARAMS.
 */
export const marketOhlcv = (address: string, params: URLSearchParams) => {
  const q = parseQuery(new URL(`http://dashboard/?${params}`), ohlcvQuery);
  return view(`/api/tokens/${address}/ohlcv?${canonicalSearch(params)}`, (db) => tokenOhlcv(db, address, q));
};

/** The pools the token page lists: a token trades in a few. */
const TOKEN_POOLS = 20;

/**
 * Everything the token page shows, its trades' first page as the list asks for it (a shared view); null when the token
 * is not indexed.
 */
export const tokenPage = (address: string) =>
  shared(`token/${address}`, async (db) => {
    const [token, score, trades, pools] = await Promise.all([
      getTokenProfile(db, address, requestTime()),
      getTokenScore(db, address),
      eventListFromSearch(db, tradesSearch(address)),
      listPools(db, address, { page: 1, limit: TOKEN_POOLS }),
    ]);
    return token && pools ? { token, score, trades, pools } : null;
  });

const WALLET_POSITIONS = 50;
const WALLET_LAUNCHES = 50;

/**
 * The wallet page's profile, score, positions (open first) and launches (newest first; a shared
 * view); null when the wallet is not indexed.
 */
export const walletPage = (address: string) =>
  shared(`wallet/${address}`, async (db) => {
    const [wallet, score, positions, launches] = await Promise.all([
      getWalletProfile(db, address),
      getWalletScore(db, address),
      listPositions(db, address, { status: "all", page: 1, limit: WALLET_POSITIONS }),
      listLaunches(db, address, { page: 1, limit: WALLET_LAUNCHES }),
    ]);
    return wallet && positions && launches ? { wallet, score, positions, launches } : null;
  });
