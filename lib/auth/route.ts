import type { NextRequest } from "next/server";
import { ApiError, errorBody, toApiError } from "@/lib/api/errors";
import { randomBase62 } from "@/lib/keys/secret";
import { log } from "@/lib/log";
import { currentAccount, type CurrentAccount } from "./account";
import { auth } from "./index";

/**
 * The dashboard's own JSON routes: authenticated by the session cookie (never by an API key,
 * and never counted against one), with the public API's error body.
 */
type RouteArgs<P> = { params: Promise<P> };
type Handler<P, A> = (req: NextRequest, ctx: { params: P; account: A }) => Promise<unknown>;

const signInRequired = () => new ApiError("UNAUTHORIZED", "Sign in first.");

function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: status === 204 ? {} : { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

/** A JSON body answers 200; null answers 204. */
function dashboardRoute<A>(authenticate: () => Promise<A>) {
  return <P = Record<string, never>>(handler: Handler<P, A>) =>
    async (req: NextRequest, args: RouteArgs<P>): Promise<Response> => {
      try {
        // The session cookie is SameSite=Lax; refusing cross-site writes outright costs nothing.
        if (req.method !== "GET" && req.headers.get("sec-fetch-site") === "cross-site") {
          throw new ApiError("FORBIDDEN", "Cross-site request refused.");
        }
        const account = await authenticate();
        const body = await handler(req, { params: await args.params, account });
        return json(body === null ? 204 : 200, body);
      } catch (err) {
        const apiError = toApiError(err);
        const requestId = `req_${randomBase62(20)}`;
        if (apiError.status >= 500) log.error("dashboard request failed", { request_id: requestId, path: req.nextUrl.pathname, error: String(err) });
        return json(apiError.status, errorBody(apiError, requestId));
      }
    };
}

/** Market data for any signed-in user. */
export const withSession = dashboardRoute(async () => {
  if (!(await auth())?.user?.id) throw signInRequired();
});

/** Account data: keys, alerts, plan. */
export const withAccount = dashboardRoute<CurrentAccount>(async () => {
  const account = await currentAccount();
  if (!account) throw signInRequired();
  return account;
});
