import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/app/v1/document";
import { llmsFullTxt, llmsTxt } from "./llms-text";
import type { Document, Operation } from "./openapi-types";

const doc = openApiDocument("https://intel.example/v1") as unknown as Document;
const ctx = { doc, origin: "https://intel.example", plans: [{ label: "Free", ratePerMinute: 10, ratePerDay: 100 }] };
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op: op as Operation })),
);

describe("llms.txt", () => {
  it("links every operation to its section of the docs page, with the limits and the full text", () => {
    const text = llmsTxt(ctx);
    expect(text).toMatch(/^# Onchain Intel API\n\n> /);
    for (const { path, method } of operations)
      expect(text).toContain(`[${method.toUpperCase()} /v1${path}](https://intel.example/docs#op-${method}-`);
    expect(text).toContain("Free 10/min and 100/day");
    expect(text).toContain("(https://intel.example/llms-full.txt)");
  });

  it("gives in full every operation's parameters, errors and example, and every schema's fields", () => {
    const text = llmsFullTxt(ctx);
    for (const { path, method, op } of operations) {
      const section = text.split(`### ${method.toUpperCase()} /v1${path}\n`)[1]?.split("\n### ")[0];
      expect(section, `${method} ${path}`).toBeDefined();
      for (const p of op.parameters ?? []) expect(section).toContain(`- \`${p.name}\` (${p.in}`);
      for (const status of Object.keys(op.responses)) expect(section).toContain(`- ${status}: `);
      if (Object.entries(op.responses).some(([s, r]) => s.startsWith("2") && r.content?.["application/json"]))
        expect(section).toContain("```json");
    }
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      for (const field of Object.keys(schema.properties ?? {})) expect(text).toContain(`- \`${field}\` (`);
      expect(text).toContain(`### ${name}\n`);
    }
    expect(text).toContain("- `txns_24h.buys` (integer): Buys");
  });
});
