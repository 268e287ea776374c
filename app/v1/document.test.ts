import { describe, expect, it } from "vitest";
import { z } from "zod";
import { EXAMPLES } from "@/lib/api/openapi";
import { openApiDocument } from "./document";

type Schema = {
  $ref?: string;
  type?: string | string[];
  required?: string[];
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
};
type Operation = {
  parameters?: { name: string; description?: string; schema?: Schema }[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

/** Every property under `schema` without a description, by its path. */
function undescribed(schema: Schema | undefined, where: string): string[] {
  if (!schema || schema.$ref) return [];
  const out: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!property.description && !property.$ref) out.push(`${where}.${name}`);
    out.push(...undescribed(property, `${where}.${name}`));
  }
  out.push(...undescribed(schema.items, `${where}[]`));
  for (const s of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])])
    out.push(...undescribed(s, where));
  return out;
}

const TOKEN_NUMBERS = ["market_cap_usd", "volume_24h_usd", "liquidity_usd", "holder_count", "age_hours", "risk_score"];
const LIST_NUMBERS = ["total", "page", "limit"];

/**
 * The number and integer fields of shared/spec/api-spec.md (section 2), by the component that
 * carries them, a dot for a field of a nested object: a client of the spec reads them as numbers.
 */
const SPEC_NUMBERS: Record<string, string[]> = {
  TokenList: LIST_NUMBERS,
  Token: TOKEN_NUMBERS,
  TokenProfile: TOKEN_NUMBERS,
  Holder: ["holding_pct", "reputation_score"],
  WalletProfile: ["reputation_score", "pnl_estimate_usd", "trade_count"],
  Holding: ["quantity", "value_usd"],
  WalletEventList: LIST_NUMBERS,
  WalletEvent: ["amount_usd"],
  EventList: LIST_NUMBERS,
  Event: ["amount_usd"],
  WalletScore: [
    "reputation_score",
    "trade_count",
    ...["win_rate", "entry_timing_score", "consistency_score", "risk_drawdown_score"].map((d) => `dimensions.${d}`),
  ],
  TokenScore: [
    "risk_score",
    ...["holder_concentration_score", "liquidity_stability_score", "wash_trade_score", "smart_money_flow_score"].map(
      (d) => `dimensions.${d}`,
    ),
    "top_holder_summary.early_mover_count",
    "top_holder_summary.avg_reputation_top10",
  ],
  AlertList: LIST_NUMBERS,
};

describe("OpenAPI document", () => {
  const doc = openApiDocument("http://localhost/v1") as unknown as {
    components: { schemas: Record<string, Schema> };
    paths: Record<string, Record<string, Operation>>;
  };

  it("gives every field of every schema a meaning", () => {
    const missing = Object.entries(doc.components.schemas).flatMap(([name, s]) => undescribed(s, name));
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const p of op.parameters ?? [])
          if (!p.description && !p.schema?.description) missing.push(`${method} ${path} ?${p.name}`);
        for (const r of Object.values(op.responses))
          missing.push(...undescribed(r.content?.["application/json"]?.schema, `${method} ${path}`));
      }
    }
    expect(missing).toEqual([]);
  });

  it("names no file of the repository in a description: its readers have the API, not the source", () => {
    const descriptions: string[] = [];
    JSON.stringify(doc, (key, value) => {
      if (key === "description" && typeof value === "string") descriptions.push(value);
      return value;
    });
    expect(descriptions.length).toBeGreaterThan(100);
    expect(descriptions.filter((d) => /[\w-]+\.(ts|tsx|js|mjs|sql|md)\b/.test(d))).toEqual([]);
  });

  it("declares every number field of the spec a required number, never null", () => {
    const resolve = (s: Schema): Schema =>
      s.$ref ? resolve(doc.components.schemas[s.$ref.replace("#/components/schemas/", "")]) : s;
    const problems: string[] = [];
    for (const [component, fields] of Object.entries(SPEC_NUMBERS)) {
      for (const field of fields) {
        let schema: Schema | undefined = doc.components.schemas[component];
        for (const name of field.split(".")) {
          const parent: Schema | undefined = schema && resolve(schema);
          schema = parent?.properties?.[name];
          if (schema && !parent?.required?.includes(name)) problems.push(`${component}.${field}: ${name} is optional`);
        }
        const type = schema && resolve(schema).type;
        if (type !== "number" && type !== "integer") problems.push(`${component}.${field}: ${JSON.stringify(schema)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("has, for every operation with a body, an example recorded from the real API that its schema accepts", () => {
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        // A stream's 200 (text/event-stream) is no JSON body to record.
        const success = Object.entries(op.responses).find(
          ([code, r]) => code.startsWith("2") && r.content?.["application/json"],
        );
        if (!success) continue;
        const key = `${method.toUpperCase()} ${path}`;
        const example = EXAMPLES[key];
        if (!example) {
          problems.push(`${key}: no example`);
          continue;
        }
        // The response's component, resolved to the zod schema that declared it.
        const ref = success[1].content?.["application/json"]?.schema.$ref ?? "";
        const schema = z.globalRegistry._idmap.get(ref.replace("#/components/schemas/", "")) as z.ZodType | undefined;
        if (!schema) problems.push(`${key}: no response schema ${ref}`);
        else if (String(example.status) !== success[0]) problems.push(`${key}: example status ${example.status}`);
        else {
          const parsed = schema.safeParse(example.body);
          if (!parsed.success) problems.push(`${key}: ${parsed.error.message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
