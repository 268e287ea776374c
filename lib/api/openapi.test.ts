import { describe, expect, it } from "vitest";
import { z } from "zod";
import { EXAMPLES, openApiDocument } from "./openapi";

type Schema = {
  $ref?: string;
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
  for (const s of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) out.push(...undescribed(s, where));
  return out;
}

describe("OpenAPI document", () => {
  const doc = openApiDocument("http://localhost/v1") as unknown as {
    components: { schemas: Record<string, Schema> };
    paths: Record<string, Record<string, Operation>>;
  };

  it("gives every field of every schema a meaning", () => {
    const missing = Object.entries(doc.components.schemas).flatMap(([name, s]) => undescribed(s, name));
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const p of op.parameters ?? []) if (!p.description && !p.schema?.description) missing.push(`${method} ${path} ?${p.name}`);
        for (const r of Object.values(op.responses)) missing.push(...undescribed(r.content?.["application/json"]?.schema, `${method} ${path}`));
      }
    }
    expect(missing).toEqual([]);
  });

  it("has, for every operation with a response body, an example recorded from the real API that its response schema accepts", () => {
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        // A stream's 200 (text/event-stream) is no JSON body to record.
        const success = Object.entries(op.responses).find(([code, r]) => code.startsWith("2") && r.content?.["application/json"]);
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
