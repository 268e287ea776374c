import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { ERROR_STATUS } from "./errors";
import examples from "./examples.json";
import * as alerts from "./schemas/alerts";
import { addressSchema } from "./schemas/common";
import * as events from "./schemas/events";
import * as market from "./schemas/market";
import * as scores from "./schemas/scores";
import { searchQuery, searchResults } from "./schemas/search";
import { status } from "./schemas/status";
import * as tokens from "./schemas/tokens";
import { positionList, positionListQuery, walletProfile } from "./schemas/wallets";

const errorSchema = z
  .object({
    error: z
      .object({
        code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]).meta({ description: "Machine-readable error code" }),
        message: z.string().meta({ description: "What went wrong, for a person" }),
        param: z.string().optional().meta({ description: "The offending parameter, for INVALID_PARAMS" }),
        request_id: z.string().meta({ description: "Also in the X-Request-Id header" }),
      })
      .meta({ description: "The error" }),
  })
  .meta({ id: "Error" });

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

const ERROR_TEXT: Record<number, string> = {
  400: "INVALID_PARAMS: a missing, malformed or unknown parameter (named in error.param)",
  401: "UNAUTHORIZED: missing or invalid API key",
  403: "FORBIDDEN: not available on the plan (a feature, a cap, or a key disabled because the account holds more than its plan allows)",
  404: "NOT_FOUND: the address is not indexed, or the resource does not exist",
  413: "PAYLOAD_TOO_LARGE: the request body is larger than 64 KiB",
  429: "RATE_LIMITED: per-minute or per-day limit exceeded; see Retry-After",
  500: "SERVER_ERROR: internal error; retry after a moment",
};

function responses(ok: ZodOpenApiResponsesObject, errors: number[]): ZodOpenApiResponsesObject {
  const out: ZodOpenApiResponsesObject = { ...ok };
  // Every keyed operation: a key beyond its account's cap on keys is 403 wherever it is sent.
  for (const code of new Set([400, 401, 403, ...errors, 429, 500])) out[String(code) as "400"] = json(errorSchema, ERROR_TEXT[code]);
  return out;
}

const addressPath = z.object({ address: addressSchema });
const idPath = z.object({ id: alerts.alertIdParam.meta({ description: "Alert id (alrt_...)" }) });

const get = (summary: string, schema: z.ZodType, params: ZodOpenApiOperationObject["requestParams"], errors: number[] = []): ZodOpenApiOperationObject => ({
  summary,
  requestParams: params,
  responses: responses({ 200: json(schema, "OK") }, errors),
});

type Example = { request: string; status: number; body: unknown };
/** Recorded from the real API by `npm run examples:record`, keyed "METHOD /path". */
export const EXAMPLES = examples as Record<string, Example>;

type Operation = { description?: string; responses?: Record<string, { content?: Record<string, { example?: unknown }> }> };

/** Each operation's success response gets its recorded example, and its description the request that made it. */
function withExamples(doc: ReturnType<typeof createDocument>) {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const example = EXAMPLES[`${method.toUpperCase()} ${path}`];
      const content = example && operation.responses?.[example.status]?.content?.["application/json"];
      if (!content) continue;
      content.example = example.body;
      operation.description = `Example request: ${method.toUpperCase()} ${example.request}`;
    }
  }
  return doc;
}

export function openApiDocument(serverUrl: string) {
  return withExamples(
    createDocument({
      openapi: "3.1.0",
      info: {
        title: "Onchain Intel API",
        version: "1.0.0",
        description:
          "Token and wallet intelligence for one EVM chain. Every request carries `Authorization: Bearer <API_KEY>`. " +
          "Every response carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset (Unix seconds) for the binding window; " +
          "data responses carry X-Indexed-Block.",
      },
      servers: [{ url: serverUrl }],
      security: [{ bearer: [] }],
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      paths: {
        "/tokens": { get: get("List and filter tokens", tokens.tokenList, { query: tokens.tokenListQuery }) },
        "/tokens/{address}": { get: get("Token profile", tokens.tokenProfile, { path: addressPath }, [404]) },
        "/tokens/{address}/ohlcv": {
          get: get(
            "USD candles of a token's price after each of its swaps and liquidity changes (none before its first; quiet intervals carry the close forward)",
            market.ohlcvList,
            { path: addressPath, query: market.ohlcvQuery },
            [404],
          ),
        },
        "/tokens/{address}/holders": {
          get: get("A token's real holders, largest first (exact total)", market.holderList, { path: addressPath, query: market.holderListQuery }, [404]),
        },
        "/tokens/{address}/pools": {
          get: get("The pools that trade a token, deepest first (exact total)", market.poolList, { path: addressPath, query: market.poolListQuery }, [404]),
        },
        "/search": {
          get: get(
            "Tokens by the start of their symbol, name or address, and wallets by the start of their address: tokens first (an exact symbol or address match, then by liquidity and 24 h volume), then wallets by trade count",
            searchResults,
            { query: searchQuery },
          ),
        },
        "/wallets/{address}": { get: get("Wallet profile", walletProfile, { path: addressPath }, [404]) },
        "/wallets/{address}/positions": {
          get: get(
            "A wallet's positions: open ones by value, then closed ones by realized PnL (exact total)",
            positionList,
            { path: addressPath, query: positionListQuery },
            [404],
          ),
        },
        "/wallets/{address}/events": {
          get: get("A wallet's events", events.walletEventList, { path: addressPath, query: events.walletEventListQuery }, [404]),
        },
        "/events": { get: get("Global event stream", events.eventList, { query: events.eventListQuery }) },
        "/scores/wallet/{address}": { get: get("Wallet reputation score", scores.walletScore, { path: addressPath }, [404]) },
        "/scores/token/{address}": { get: get("Token risk score", scores.tokenScore, { path: addressPath }, [404]) },
        "/alerts": {
          get: get("The key's alerts", alerts.alertList, { query: alerts.alertListQuery }),
          post: {
            summary: "Create an alert: a token filter (no kind: the spec's), or a wallet, price or smart-money alert",
            requestBody: { content: { "application/json": { schema: alerts.createAlertBody } } },
            responses: responses({ 201: json(alerts.createdAlert, "Created") }, [403, 413]),
          },
        },
        "/alerts/{id}": {
          get: get("An alert with its recent deliveries", alerts.alertDetail, { path: idPath }, [404]),
          patch: {
            summary: "Change an alert (name, conditions in its kind or a new kind, channel, status)",
            requestParams: { path: idPath },
            requestBody: { content: { "application/json": { schema: alerts.updateAlertBody } } },
            responses: responses({ 200: json(alerts.alert, "OK") }, [403, 404, 413]),
          },
          delete: {
            summary: "Delete an alert",
            requestParams: { path: idPath },
            responses: responses({ 204: { description: "Deleted" } }, [404]),
          },
        },
        "/status": {
          get: {
            summary: "Data freshness (no key)",
            security: [],
            responses: { 200: json(status, "OK"), 400: json(errorSchema, ERROR_TEXT[400]), 500: json(errorSchema, ERROR_TEXT[500]) },
          },
        },
      },
    }),
  );
}
