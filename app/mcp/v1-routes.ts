import { NextRequest } from "next/server";
import * as unknownPath from "@/app/v1/[[...path]]/route";
import * as alert from "@/app/v1/alerts/[id]/route";
import * as alerts from "@/app/v1/alerts/route";
import * as events from "@/app/v1/events/route";
import * as eventStream from "@/app/v1/events/stream/route";
import * as openapi from "@/app/v1/openapi.json/route";
import * as tokenScore from "@/app/v1/scores/token/[address]/route";
import * as walletScore from "@/app/v1/scores/wallet/[address]/route";
import * as search from "@/app/v1/search/route";
import * as status from "@/app/v1/status/route";
import * as holders from "@/app/v1/tokens/[address]/holders/route";
import * as ohlcv from "@/app/v1/tokens/[address]/ohlcv/route";
import * as pools from "@/app/v1/tokens/[address]/pools/route";
import * as token from "@/app/v1/tokens/[address]/route";
import * as security from "@/app/v1/tokens/[address]/security/route";
import * as tokens from "@/app/v1/tokens/route";
import * as walletEvents from "@/app/v1/wallets/[address]/events/route";
import * as launches from "@/app/v1/wallets/[address]/launches/route";
import * as positions from "@/app/v1/wallets/[address]/positions/route";
import * as wallet from "@/app/v1/wallets/[address]/route";

type Handler = (req: NextRequest, args: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;

/**
 * The /v1 route modules by their OpenAPI path ({name} for a path parameter); app/v1/routes.test.ts
 * checks each is the module at its path and that every path of the document is here.
 */
export const V1_ROUTES = {
  "/tokens": tokens,
  "/tokens/{address}": token,
  "/tokens/{address}/ohlcv": ohlcv,
  "/tokens/{address}/holders": holders,
  "/tokens/{address}/pools": pools,
  "/tokens/{address}/security": security,
  "/search": search,
  "/wallets/{address}": wallet,
  "/wallets/{address}/positions": positions,
  "/wallets/{address}/launches": launches,
  "/wallets/{address}/events": walletEvents,
  "/events": events,
  "/events/stream": eventStream,
  "/scores/wallet/{address}": walletScore,
  "/scores/token/{address}": tokenScore,
  "/alerts": alerts,
  "/alerts/{id}": alert,
  "/status": status,
  "/openapi.json": openapi,
} as unknown as Record<string, RouteModule>;

const PATTERNS = Object.entries(V1_ROUTES).map(([path, module]) => ({ segments: path.split("/").slice(1), module }));

/** The module serving `path` (below /v1) and its path parameters; the catch-all's 404 otherwise. */
function match(path: string): { module: RouteModule; params: Record<string, string> } {
  const segments = path.split("/").slice(1);
  for (const pattern of PATTERNS) {
    if (pattern.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.segments.every((s, i) => {
      const name = /^\{(\w+)\}$/.exec(s)?.[1];
      if (name) params[name] = decodeURIComponent(segments[i]);
      return name !== undefined || s === segments[i];
    });
    if (matches) return { module: pattern.module, params };
  }
  return { module: unknownPath as unknown as RouteModule, params: {} };
}

/**
 * A fetch that answers /v1 requests by calling their route handlers in this process: the same
 * authorization, metering, validation and cache as over HTTP, without a round trip through the
 * network. `observe` sees every response.
 */
export function v1Fetch(observe: (response: Response) => void) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const { module, params } = match(url.pathname.replace(/^\/v1(?=\/)/, ""));
    const handler = module[request.method] ?? (unknownPath as unknown as RouteModule)[request.method];
    if (!handler) throw new TypeError(`No handler for ${request.method} ${url.pathname}`);
    const response = await handler(new NextRequest(request), { params: Promise.resolve(params) });
    observe(response);
    return response;
  };
}
