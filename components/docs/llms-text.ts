import { recordedExample } from "./examples";
import { type Document, type Operation, refName, type Schema } from "./openapi-types";
import { operationAnchor } from "./operation";
import { schemaRules } from "./schema-type";

/**
 * The API as plain text for language models (llmstxt.org): `/llms.txt` is the index, `/llms-full.txt`
 * every endpoint with its parameters, errors, response fields and one recorded example. Both are
 * generated from the OpenAPI document, so they say what the API does and nothing else.
 */

/** A plan's request limits, as the plans table states them. */
export type PlanLimitsText = { label: string; ratePerMinute: number; ratePerDay: number };

type Context = { doc: Document; origin: string; plans: PlanLimitsText[] };

const METHODS = ["get", "post", "put", "patch", "delete"];
const number = (n: number) => n.toLocaleString("en-US");

function operations(doc: Document) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ path, method, op: item[method] as Operation }] : [])),
  );
}

/** A schema's type in a few words: a named schema's name, T[], the allowed values, T | null. */
export function typeText(schema: Schema | undefined): string {
  if (!schema) return "any";
  if (schema.$ref) return refName(schema.$ref);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeText).join(" | ");
  if (schema.items) return `${typeText(schema.items)}[]`;
  if (schema.enum && schema.type !== "boolean") return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  return schema.format ? `${type} (${schema.format})` : type;
}

const limitsLine = (plans: PlanLimitsText[]) =>
  plans.map((p) => `${p.label} ${number(p.ratePerMinute)}/min and ${number(p.ratePerDay)}/day`).join("; ");

function conventions({ doc, origin, plans }: Context): string[] {
  return [
    `Base URL: ${origin}/v1. ${doc.info.description ?? ""}`,
    `Limits per plan: ${limitsLine(plans)} (API Tier keys may carry their own). The minute window slides; the day ` +
      `resets at 00:00 UTC. Over a limit: 429 RATE_LIMITED with Retry-After (seconds).`,
    'Errors: {"error":{"code","message","param","request_id"}}; ' +
      "`param` names the offending parameter of a 400 INVALID_PARAMS. Unknown or repeated query parameters are 400.",
    'Lists: {"data","total","page","limit"}; `limit` 1 to 200 (default 50), `page` from 1; `total` is exact.',
    "Numbers: USD amounts are US dollars; *_pct fields are percent; 1 h and 24 h windows end at the indexed block " +
      "(header X-Indexed-Block).",
  ];
}

/** The index: what the API is, its conventions, and a link per endpoint. */
export function llmsTxt(ctx: Context): string {
  const { doc, origin } = ctx;
  const lines = [
    `# ${doc.info.title}`,
    "",
    "> Token and wallet intelligence for one EVM chain: tokens, risk scores, holders, candles, wallets, positions, " +
      "events and alerts, over a JSON API.",
    "",
  ];
  lines.push(...conventions(ctx).map((l) => `- ${l}`), "", "## Endpoints", "");
  for (const { path, method, op } of operations(doc)) {
    lines.push(
      `- [${method.toUpperCase()} /v1${path}](${origin}/docs#${operationAnchor(method, path)}): ${op.summary ?? ""}`,
    );
  }
  lines.push(
    "",
    "## Docs",
    "",
    `- [Full reference for LLMs](${origin}/llms-full.txt): every endpoint with its parameters, errors, response ` +
      `fields and an example`,
    `- [OpenAPI 3.1 document](${origin}/v1/openapi.json)`,
    `- [API reference](${origin}/docs)`,
    "",
    "## Optional",
    "",
    `- [MCP server](${origin}/mcp): Streamable HTTP, with the same API key as a Bearer token; or \`npx ` +
      `onchain-intel-mcp\` over stdio`,
    "- TypeScript SDK: the npm package `onchain-intel` (`new OnchainIntel({ apiKey, baseUrl })`)",
    "",
  );
  return lines.join("\n");
}

/** An example cut to its first list item and short strings: the shape, not the data. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 1).map(trimmed);
  if (typeof value === "string") return value.length > 160 ? `${value.slice(0, 160)}…` : value;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
  return value;
}

function parameterLines(op: Operation): string[] {
  return (op.parameters ?? []).map((p) => {
    const rules = p.schema ? schemaRules(p.schema) : [];
    const meta = [p.in, p.required ? "required" : null, ...rules].filter(Boolean).join("; ");
    return `- \`${p.name}\` (${meta}): ${p.description ?? p.schema?.description ?? ""}`;
  });
}

function operationText(path: string, method: string, op: Operation, schemas: Record<string, Schema>): string[] {
  const meaning = op.description?.split("Example request: ")[0].trim();
  const lines = [`### ${method.toUpperCase()} /v1${path}`, "", op.summary ?? "", ...(meaning ? ["", meaning] : []), ""];
  lines.push(op.security?.length === 0 ? "No key needed." : "Key: `Authorization: Bearer <API_KEY>`.", "");
  const params = parameterLines(op);
  if (params.length) lines.push("Parameters:", ...params, "");
  const body = op.requestBody?.content?.["application/json"]?.schema;
  if (body) lines.push(`Body (JSON): ${typeText(body)}`, "");
  for (const [status, r] of Object.entries(op.responses)) {
    const schema = r.content?.["application/json"]?.schema;
    lines.push(`- ${status}: ${r.description}${schema && status.startsWith("2") ? ` → ${typeText(schema)}` : ""}`);
  }
  const success = Object.entries(op.responses).find(([status]) => status.startsWith("2"));
  const example = success && recordedExample(success[1].content?.["application/json"], schemas);
  const request = op.description?.split("Example request: ")[1];
  if (example !== undefined)
    lines.push(
      "",
      `Example${request ? `: ${request}` : ""} (lists cut to one item)`,
      "```json",
      JSON.stringify(trimmed(example)),
      "```",
    );
  lines.push("");
  return lines;
}

/** An object schema's fields, nested objects as dotted names. */
function fieldLines(schema: Schema, prefix = ""): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
    const rules = schemaRules(field);
    const optional = required.has(name) ? "" : ", optional";
    const constraints = rules.length ? ` [${rules.join("; ")}]` : "";
    const line = `- \`${prefix}${name}\` (${typeText(field)}${optional}): ${field.description ?? ""}${constraints}`;
    return [line, ...(field.properties ? fieldLines(field, `${prefix}${name}.`) : [])];
  });
}

/** Every endpoint in full, then every schema's fields: the whole API on one page. */
export function llmsFullTxt(ctx: Context): string {
  const { doc } = ctx;
  const schemas = doc.components?.schemas ?? {};
  const lines = [
    `# ${doc.info.title} ${doc.info.version}: full reference`,
    "",
    ...conventions(ctx).map((l) => `- ${l}`),
    "",
    "## Endpoints",
    "",
  ];
  for (const { path, method, op } of operations(doc)) lines.push(...operationText(path, method, op, schemas));
  lines.push("## Schemas", "");
  for (const [name, schema] of Object.entries(schemas)) {
    const fields = fieldLines(schema);
    lines.push(
      `### ${name}`,
      "",
      ...(fields.length ? fields : [`${typeText(schema)}: ${schema.description ?? ""}`]),
      "",
    );
  }
  return lines.join("\n");
}
