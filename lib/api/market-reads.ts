import { getDb } from "@/db/client";
import { requestTime } from "@/lib/queries/clock";
import { getTokenScore, getWalletScore } from "@/lib/queries/scores";
import { canonicalSearch, sharedRead } from "@/lib/queries/shared-cache";
import { getStatus } from "@/lib/queries/status";
import { priceVolumeSeries } from "@/lib/queries/token-series";
import { getTokenProfile } from "@/lib/queries/tokens";
import { getWalletProfile } from "@/lib/queries/wallets";
import { eventListFromSearch, tokenListFromSearch } from "./lists";

/**
 * The market data of the public pages and the dashboard's market routes, each through the cache
 * every visitor shares (shared-cache.ts). Market data is public (DESIGN.md): no session, no
 * metering; alerts, keys and plans stay behind sign-in.
 */
export const marketTokens = (search: URLSearchParams) =>
  sharedRead(`tokens?${canonicalSearch(search)}`, () => tokenListFromSearch(getDb(), search, requestTime()));

export const marketEvents = (search: URLSearchParams) => sharedRead(`events?${canonicalSearch(search)}`, () => eventListFromSearch(getDb(), search));

export const marketStatus = () => sharedRead("status", () => getStatus(getDb(), requestTime()));

const RECENT_TOKEN_EVENTS = 15;

/** Everything the token page shows; null when the token is not indexed. */
export const tokenPage = (address: string) =>
  sharedRead(`token/${address}`, async () => {
    const db = getDb();
    const [token, score, events] = await Promise.all([
      getTokenProfile(db, address, requestTime()),
      getTokenScore(db, address),
      eventListFromSearch(db, new URLSearchParams({ token_address: address, limit: String(RECENT_TOKEN_EVENTS) })),
    ]);
    if (!token) return null;
    return { token, score, events, series: await priceVolumeSeries(db, address, new Date(token.created_at)) };
  });

/** The wallet page's profile and score; null when the wallet is not indexed. */
export const walletPage = (address: string) =>
  sharedRead(`wallet/${address}`, async () => {
    const db = getDb();
    const [wallet, score] = await Promise.all([getWalletProfile(db, address), getWalletScore(db, address)]);
    return wallet ? { wallet, score } : null;
  });
