import { buildDocument, type PathItem } from "@/lib/api/openapi";
import * as alert from "./alerts/[id]/operation";
import * as alerts from "./alerts/operation";
import * as events from "./events/operation";
import * as eventStream from "./events/stream/operation";
import * as tokenScore from "./scores/token/[address]/operation";
import * as walletScore from "./scores/wallet/[address]/operation";
import * as search from "./search/operation";
import * as status from "./status/operation";
import * as holders from "./tokens/[address]/holders/operation";
import * as ohlcv from "./tokens/[address]/ohlcv/operation";
import * as token from "./tokens/[address]/operation";
import * as pools from "./tokens/[address]/pools/operation";
import * as security from "./tokens/[address]/security/operation";
import * as tokens from "./tokens/operation";
import * as walletEvents from "./wallets/[address]/events/operation";
import * as launches from "./wallets/[address]/launches/operation";
import * as wallet from "./wallets/[address]/operation";
import * as positions from "./wallets/[address]/positions/operation";

/**
 * The documented /v1 paths ({name} for a path parameter) and their operations, each declared in
 * the operation.ts beside its route.ts. document.test.ts checks this list against the route files:
 * each path here is the folder of its operation.ts, every route.ts has one (but the undocumented
 * ones), and a route serves exactly the methods its operations declare.
 */
export const V1_PATHS: Record<string, PathItem> = {
  "/tokens": tokens.operations,
  "/tokens/{address}": token.operations,
  "/tokens/{address}/ohlcv": ohlcv.operations,
  "/tokens/{address}/holders": holders.operations,
  "/tokens/{address}/pools": pools.operations,
  "/tokens/{address}/security": security.operations,
  "/search": search.operations,
  "/wallets/{address}": wallet.operations,
  "/wallets/{address}/positions": positions.operations,
  "/wallets/{address}/launches": launches.operations,
  "/wallets/{address}/events": walletEvents.operations,
  "/events": events.operations,
  "/events/stream": eventStream.operations,
  "/scores/wallet/{address}": walletScore.operations,
  "/scores/token/{address}": tokenScore.operations,
  "/alerts": alerts.operations,
  "/alerts/{id}": alert.operations,
  "/status": status.operations,
};

/** The API's OpenAPI 3.1 document; without `examples`, no recorded example (the SDK's types are made so). */
export const openApiDocument = (serverUrl: string, options?: { examples?: boolean }) =>
  buildDocument(serverUrl, V1_PATHS, options);
