import { getDb } from "@/db/client";
import { requestTime } from "@/lib/queries/clock";
import { tokenOhlcv } from "@/lib/queries/ohlcv";
import { listPools } from "@/lib/queries/pools";
import { listPositions } from "@/lib/queries/positions";
import { getTokenScore, getWalletScore } from "@/lib/queries/scores";
import { search } from "@/lib/queries/search";
import { canonicalSearch, sharedRead } from "@/lib/queries/shared-cache";
import { getStatus } from "@/lib/queries/status";
import { getTokenProfile } from "@/lib/queries/tokens";
import { tradesSearch } from "@/lib/queries/trades-search";
import { getWalletProfile } from "@/lib/queries/wallets";
import { eventListFromSearch, tokenListFromSearch } from "./lists";
import { parseQuery } from "./params";
import { ohlcvQuery } from "./schemas/market";
import { searchQuery } from "./schemas/search";

/**
 * The market data of the public pages and the dashboard's market routes, each through the cache
 * every visitor shares (shared-cache.ts). Market data is public: no session; the
 * market routes meter each request (lib/auth/route.ts), a page view costs a cached read.
 */
export const marketTokens = (search: URLSearchParams) =>
  sharedRead(`tokens?${canonicalSearch(search)}`, () => tokenListFromSearch(getDb(), search, requestTime()));

export const marketEvents = (search: URLSearchParams) => sharedRead(`events?${canonicalSearch(search)}`, () => eventListFromSearch(getDb(), search));

/** GET /v1/search's answer for the header's search box; invalid parameters throw INVALID_PARAMS. */
export const marketSearch = (params: URLSearchParams) => {
  const q = parseQuery(new URL(`http://dashboard/?${params}`), searchQuery);
  return sharedRead(`search?${canonicalSearch(params)}`, () => search(getDb(), q));
};

export const marketStatus = () => sharedRead("status", () => getStatus(getDb(), requestTime()));

/** GET /v1/tokens/{address}/ohlcv's answer for the token page's chart, null for an unindexed token; invalid parameters throw INVALID_PARAMS. */
export const marketOhlcv = (address: string, params: URLSearchParams) => {
  const q = parseQuery(new URL(`http://dashboard/?${params}`), ohlcvQuery);
  return sharedRead(`ohlcv/${address}?${canonicalSearch(params)}`, () => tokenOhlcv(getDb(), address, q));
};

/** The pools the token page lists: a token trades in a few. */
const TOKEN_POOLS = 20;

/** Everything the token page shows (its trades' first page as the list asks for it); null when the token is not indexed. */
export const tokenPage = (address: string) =>
  sharedRead(`token/${address}`, async () => {
    const db = getDb();
    const [token, score, trades, pools] = await Promise.all([
      getTokenProfile(db, address, requestTime()),
      getTokenScore(db, address),
      eventListFromSearch(db, tradesSearch(address)),
      listPools(db, address, { page: 1, limit: TOKEN_POOLS }),
    ]);
    return token && pools ? { token, score, trades, pools } : null;
  });

const WALLET_POSITIONS = 50;

/** The wallet page's profile, score and positions (open first); null when the wallet is not indexed. */
export const walletPage = (address: string) =>
  sharedRead(`wallet/${address}`, async () => {
    const db = getDb();
    const [wallet, score, positions] = await Promise.all([
      getWalletProfile(db, address),
      getWalletScore(db, address),
      listPositions(db, address, { status: "all", page: 1, limit: WALLET_POSITIONS }),
    ]);
    return wallet && positions ? { wallet, score, positions } : null;
  });
