import { headers as requestHeaders } from "next/headers";
import { authorizeDashboard, rateLimitHeaders } from "@/lib/api/auth";
import { ApiError, type Refusal, refusalOf } from "@/lib/api/errors";
import { routeUrl, viewAccess } from "@/lib/queries/shared-views";
import { clientMeter } from "./client-address";
import { auth } from "./index";

export const ACCOUNT_REQUIRED =
  "This view needs an account: filters, pages past the first and pages of more than 50 rows " +
  "count against a plan's limits. Sign in (free) to see it; the first page of each sort stays open to everyone.";

/**
 * Whether this visitor may read a market view (a dashboard market route's URL; a page asks for
 * the route its data comes from, so its HTML and its RSC payload answer to the same rule), and
 * what it costs (lib/queries/shared-views.ts says which views are which): a shared view
 * nothing; an account's view a request from the signed-in account's plan, 401 without a
 * session; any other a request from the account's plan, or from the client address's (the Free
 * plan's limits) without a session. 429 past a limit. Returns the rate-limit headers to send.
 */
export async function authorizeMarketView(url: URL, headers: Headers): Promise<Record<string, string>> {
  const access = viewAccess(url);
  if (access === "shared") return {};
  const userId = (await auth())?.user?.id ?? null;
  if (!userId && access === "account") throw new ApiError("UNAUTHORIZED", ACCOUNT_REQUIRED);
  const { rateLimit } = await authorizeDashboard(userId, clientMeter(headers));
  return rateLimitHeaders(rateLimit);
}

export type MarketView<T> = { data: T; refusal?: undefined } | { data?: undefined; refusal: Refusal };

/**
 * A page's market data from `load`, once the visitor may read the view of the market route
 * `path` (authorizeMarketView); a refusal (sign in first, or the limit's retry time) instead of
 * the data otherwise, for the page to say so.
 */
export async function pageView<T>(path: string, load: () => Promise<T>): Promise<MarketView<T>> {
  try {
    await authorizeMarketView(routeUrl(path), await requestHeaders());
  } catch (err) {
    const refused = err instanceof ApiError && (err.code === "UNAUTHORIZED" || err.code === "RATE_LIMITED");
    if (refused) return { refusal: refusalOf(err) };
    throw err;
  }
  return { data: await load() };
}
