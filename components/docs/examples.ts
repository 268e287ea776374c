import type { MediaType, Operation, Schema } from "./openapi-types";
import { refName } from "./openapi-types";

/**
 * Addresses of the live market, and values of required query parameters that find something in
 * it (a search for a live token's symbol), so a copied curl line asks about something that exists.
 */
export type LiveAddresses = { token: string | null; wallet: string | null; queries?: Record<string, string> };

const json = (content?: Record<string, MediaType>) => content?.["application/json"];

/** The example a media type records: `example`, the first of `examples`, or its schema's. */
export function recordedExample(media: MediaType | undefined, schemas: Record<string, Schema>): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const named = Object.values(media.examples ?? {})[0]?.value;
  if (named !== undefined) return named;
  const schema = media.schema?.$ref ? schemas[refName(media.schema.$ref)] : media.schema;
  return schema?.example ?? schema?.examples?.[0];
}

/** Bodies that pass validation as they are, for the request bodies the API takes (by schema name). */
const BODIES: Record<string, unknown> = {
  CreateAlert: {
    name: "fresh and liquid",
    conditions: { min_liquidity_usd: 10000, max_risk_score: 40 },
    notification_channel: "email",
  },
  UpdateAlert: { name: "fresh, liquid and clean", conditions: { min_liquidity_usd: 10000, max_risk_score: 30 } },
};

function requestBody(op: Operation, schemas: Record<string, Schema>): unknown {
  const media = json(op.requestBody?.content);
  const recorded = recordedExample(media, schemas);
  if (recorded !== undefined) return recorded;
  const ref = media?.schema?.$ref;
  return ref ? BODIES[refName(ref)] : undefined;
}

/** Fills a path's parameters: addresses from the live market, other ids from shell variables. */
function fillPath(path: string, live: LiveAddresses): string {
  const kind = /\/(tokens|scores\/token)\//.test(path)
    ? "token"
    : /\/(wallets|scores\/wallet)\//.test(path)
      ? "wallet"
      : null;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "address" && kind && live[kind]) return live[kind]!;
    // "/alerts/{id}" reads $ALERT_ID: the resource's name, singular, then the parameter's.
    const resource = /\/(\w+?)s?\/\{/.exec(path)?.[1];
    return `$${resource ? `${resource.toUpperCase()}_` : ""}${name.toUpperCase()}`;
  });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/**
 * A curl line that runs as copied once KEY holds an API key (and ALERT_ID an alert's id, for the
 * alert routes): the path filled, required query parameters set, a valid JSON body for writes.
 */
export function curlLine(
  method: string,
  path: string,
  serverUrl: string,
  op: Operation,
  schemas: Record<string, Schema>,
  live: LiveAddresses,
): string {
  const parts = ["curl", "-sS"];
  // A stream's messages as they come, not when curl's buffer fills.
  if (Object.values(op.responses).some((r) => r.content?.["text/event-stream"])) parts.push("-N");
  if (method !== "get") parts.push("-X", method.toUpperCase());
  if (op.security?.length !== 0) parts.push("-H", '"Authorization: Bearer $KEY"');
  const body = requestBody(op, schemas);
  if (body !== undefined) parts.push("-H", "'Content-Type: application/json'", "-d", shellQuote(JSON.stringify(body)));
  const required = (op.parameters ?? []).filter((p) => p.in === "query" && p.required);
  // A live value first, else the default, the first allowed value or the parameter's example: never an empty one.
  const value = (p: (typeof required)[number]) =>
    live.queries?.[p.name] ?? p.schema?.default ?? p.schema?.enum?.[0] ?? p.schema?.examples?.[0] ?? "";
  const query = required.map((p) => `${p.name}=${encodeURIComponent(String(value(p)))}`).join("&");
  parts.push(`"${serverUrl}${fillPath(path, live)}${query ? `?${query}` : ""}"`);
  return parts.join(" ");
}
