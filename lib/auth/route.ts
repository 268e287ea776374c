import type { NextRequest } from "next/server";
import { authorizeDashboard, rateLimitHeaders } from "@/lib/api/auth";
import { ApiError } from "@/lib/api/errors";
import { answer, noContent } from "@/lib/api/response";
import { config } from "@/lib/config";
import { type CurrentAccount, currentAccount } from "./account";
import { clientMeter } from "./client-address";
import { authorizeMarketView } from "./market-access";

/**
 * The dashboard's own JSON routes: authenticated by the session cookie (never by an API key),
 * with the public API's error body and deadline. Market data is public where it is shared (any
 * visitor, from the cache every visitor shares: lib/api/market-reads.ts) and metered elsewhere;
 * account data needs a session.
 */
type RouteArgs<P> = { params: Promise<P> };
type Handler<P, A> = (req: NextRequest, ctx: { params: P; account: A }) => Promise<unknown>;
type Authenticate<A> = (req: NextRequest) => Promise<{ account: A; headers: Record<string, string> }>;

const SAFE_METHODS = new Set(["GET", "HEAD"]);
const isJson = (contentType: string | null) => /^application\/json\s*(;|$)/i.test(contentType?.trim() ?? "");

/**
 * Cross-site request forgery: besides the SameSite=Lax session cookie and Fetch Metadata, a
 * write must come from the app's own origin and be JSON (which a page elsewhere cannot send
 * without a CORS preflight, which this app never grants).
 */
function refuseForeignWrite(req: NextRequest) {
  if (SAFE_METHODS.has(req.method)) return;
  if (req.headers.get("sec-fetch-site") === "cross-site" || req.headers.get("origin") !== config.appOrigin) {
    throw new ApiError("FORBIDDEN", `Cross-origin request refused: writes must come from ${config.appOrigin}.`);
  }
  if (!isJson(req.headers.get("content-type"))) {
    throw new ApiError("FORBIDDEN", "Writes must be sent as JSON: Content-Type: application/json.");
  }
}

/** A JSON body answers 200; null answers 204. Errors, headers and the deadline as the API's (response.ts). */
function dashboardRoute<A>(authenticate: Authenticate<A>) {
  return <P = Record<string, never>>(handler: Handler<P, A>) =>
    (req: NextRequest, args: RouteArgs<P>): Promise<Response> =>
      answer(req, async ({ headers }) => {
        refuseForeignWrite(req);
        const { account, headers: authHeaders } = await authenticate(req);
        Object.assign(headers, authHeaders);
        const body = await handler(req, { params: await args.params, account });
        return body === null ? noContent() : body;
      });
}

const signInRequired = () => new ApiError("UNAUTHORIZED", "Sign in first.");

async function signedIn(): Promise<CurrentAccount> {
  const account = await currentAccount();
  if (!account) throw signInRequired();
  return account;
}

/**
 * Market data. The shared views (lib/queries/shared-views.ts) are free to anyone; filters and
 * deep pages need a session and take one request from its account's plan limits; any other
 * query takes one from the account's, or from the client address's (the Free plan's) without a
 * session, so these routes are no way around the API's metering (authorizeMarketView).
 */
export const withPublicRead = dashboardRoute<void>(async (req) => {
  const headers = await authorizeMarketView(req.nextUrl, req.headers);
  return { account: undefined, headers };
});

/** Account data: keys, alerts, plan. */
export const withAccount = dashboardRoute(async () => ({ account: await signedIn(), headers: {} }));

/**
 * Account writes that make something (a key, a rotation, an alert or a change of one, a key's
 * limits): each takes one request from the account's plan limits, as a market read does, so a
 * session cannot make them without bound. Revoking and deleting stay on withAccount: they must
 * work past any limit.
 */
export const withMeteredAccount = dashboardRoute(async (req) => {
  const account = await signedIn();
  const { rateLimit } = await authorizeDashboard(account.userId, clientMeter(req.headers));
  return { account, headers: rateLimitHeaders(rateLimit) };
});
