import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { ERROR_STATUS } from "./errors";
import examples from "./examples.json";
import { OPERATION_NUMBERS as NUMBERS } from "./operation-numbers";
import * as alerts from "./schemas/alerts";
import { addressSchema } from "./schemas/common";
import * as events from "./schemas/events";
import * as market from "./schemas/market";
import * as scores from "./schemas/scores";
import { searchQuery, searchResults } from "./schemas/search";
import { tokenSecurity } from "./schemas/security";
import { status } from "./schemas/status";
import * as tokens from "./schemas/tokens";
import { positionList, positionListQuery, walletProfile } from "./schemas/wallets";

const errorSchema = z
  .object({
    error: z
      .object({
        code: z
          .enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS])
          .meta({ description: "Machine-readable error code" }),
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
  for (const code of new Set([400, 401, 403, ...errors, 429, 500]))
    out[String(code) as "400"] = json(errorSchema, ERROR_TEXT[code]);
  return out;
}

const addressPath = z.object({ address: addressSchema });
const idPath = z.object({ id: alerts.alertIdParam.meta({ description: "Alert id (alrt_...)" }) });

const get = (
  summary: string,
  schema: z.ZodType,
  params: ZodOpenApiOperationObject["requestParams"],
  errors: number[] = [],
): ZodOpenApiOperationObject => ({
  summary,
  requestParams: params,
  responses: responses({ 200: json(schema, "OK") }, errors),
});

const STREAM_EXAMPLE = `retry: 2000

id: 1234500007
data: {"id":"1234500007","type":"swap","wallet_address":"0x…","token_address":"0x…","token_symbol":"PEPE","amount_usd":125.5,"direction":"buy","timestamp":"2026-01-05T12:34:56.000Z","block_number":12345,"tx_hash":"0x…","confirmed":false}

event: head
id: 1234500007
data: {"indexed_block":12345,"confirmed_block":12313}

event: removed
id: 1234500007
data: {"id":"1234500007","removed":true,"type":"swap","wallet_address":"0x…","token_address":"0x…","timestamp":"2026-01-05T12:34:56.000Z","block_number":12345,"tx_hash":"0x…"}

: keep-alive
`;

/** GET /events/stream: Server-Sent Events, so its 200 is text/event-stream, described message by message. */
const eventStream: ZodOpenApiOperationObject = {
  summary: "The event stream, pushed as it is indexed (Server-Sent Events)",
  description: [
    "The events of `GET /events` as blocks are indexed, with its filters, as `text/event-stream` (see the event stream guide). Messages:",
    "an event (the default message type): `id:` its id, `data:` the Event as `/events` lists it;",
    "`event: removed`: a tombstone, an event a reorg removed that the stream had sent: `id:` its id, `data:` the RemovedEvent;",
    "`event: head` after each indexed block: `data:` a StreamHead (what became final: events at or below `confirmed_block`),",
    "`id:` the position a reconnect resumes from; `event: end`: the server ends the stream, `data:` a StreamEnd; a comment when idle.",
    "Resume with the last `id:` received as the Last-Event-ID header (EventSource sends it) or `after=`: no event is missed or repeated,",
    "across reconnects, server restarts and reorgs. Without either the stream starts at the indexed head.",
    "Concurrent streams per key are capped by plan (none on Free: 403; past the cap: 429). Opening counts one request, and each",
    "further minute open one more; a revoked key's streams end within seconds; a client more than 1 MiB behind is ended (slow_client).",
  ].join(" "),
  requestParams: { query: events.eventStreamQuery, header: z.object({ "Last-Event-ID": events.lastEventIdHeader }) },
  responses: {
    ...responses(
      {
        200: {
          description: "The stream: messages as blocks are indexed, until the client closes it or the server ends it",
          content: {
            "text/event-stream": {
              schema: z.string().meta({ description: "Server-Sent Events" }),
              example: STREAM_EXAMPLE,
            },
          },
        },
      },
      [403],
    ),
    429: json(
      errorSchema,
      "RATE_LIMITED: per-minute or per-day limit exceeded (see Retry-After), or the key has as many streams open as its plan allows",
    ),
  },
};

type Example = { request: string; status: number; body: unknown };
/** Recorded from the real API by `npm run examples:record`, keyed "METHOD /path". */
export const EXAMPLES = examples as Record<string, Example>;

type Operation = {
  description?: string;
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
};

/**
 * Each operation's description says what its numbers mean, then (with `examples`) the request of
 * its recorded example, which its success response gets.
 */
function withExamples(doc: ReturnType<typeof createDocument>, examples: boolean) {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const key = `${method.toUpperCase()} ${path}`;
      if (NUMBERS[key]) operation.description = NUMBERS[key];
      const example = examples ? EXAMPLES[key] : undefined;
      const content = example && operation.responses?.[example.status]?.content?.["application/json"];
      if (!content) continue;
      content.example = example.body;
      const request = `Example request: ${method.toUpperCase()} ${example.request}`;
      operation.description = NUMBERS[key] ? `${NUMBERS[key]} ${request}` : request;
    }
  }
  return doc;
}

/** The API's OpenAPI 3.1 document; without `examples`, no recorded example (the SDK's types are made so). */
export function openApiDocument(serverUrl: string, { examples = true } = {}) {
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
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
        schemas: { StreamHead: events.streamHead, StreamEnd: events.streamEnd },
      },
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
          get: get(
            "A token's real holders, largest first (exact total)",
            market.holderList,
            { path: addressPath, query: market.holderListQuery },
            [404],
          ),
        },
        "/tokens/{address}/pools": {
          get: get(
            "The pools that trade a token, deepest first (exact total)",
            market.poolList,
            { path: addressPath, query: market.poolListQuery },
            [404],
          ),
        },
        "/tokens/{address}/security": {
          get: get(
            "Can the token be sold? Its buy and sell tax and honeypot verdict from a simulated trade, its owner, " +
              "what its code can do, and who holds its liquidity, each check with the block it ran at",
            tokenSecurity,
            { path: addressPath },
            [404],
          ),
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
          get: get(
            "A wallet's events",
            events.walletEventList,
            { path: addressPath, query: events.walletEventListQuery },
            [404],
          ),
        },
        "/events": { get: get("Global event stream", events.eventList, { query: events.eventListQuery }) },
        "/events/stream": { get: eventStream },
        "/scores/wallet/{address}": {
          get: get("Wallet reputation score", scores.walletScore, { path: addressPath }, [404]),
        },
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
            responses: {
              200: json(status, "OK"),
              400: json(errorSchema, ERROR_TEXT[400]),
              500: json(errorSchema, ERROR_TEXT[500]),
            },
          },
        },
      },
    }),
    examples,
  );
}
