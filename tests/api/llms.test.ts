import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/app/v1/document";
import { listPlans } from "@/lib/queries/plans";
import { baseUrl, testDb } from "./helpers";

const documentPaths = openApiDocument("http://x/v1").paths ?? {};
const paths = Object.keys(documentPaths);
const operations = Object.entries(documentPaths).flatMap(([p, item]) =>
  Object.keys(item as object).map((m) => `${m.toUpperCase()} ${p}`),
);

describe("/llms.txt and /llms-full.txt", () => {
  it("serve the API as text, with no key, the plans' limits as the plans table states them", async () => {
    const plans = await listPlans(testDb());
    for (const file of ["/llms.txt", "/llms-full.txt"]) {
      const res = await fetch(`${baseUrl()}${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = await res.text();
      for (const p of plans) expect(text).toContain(`${p.label} ${p.ratePerMinute.toLocaleString("en-US")}/min`);
      for (const path of paths) expect(text).toContain(`/v1${path}`);
    }
  });
});

describe("the docs page", () => {
  it("shows each operation's SDK call beside its curl line, and links the machine-readable forms", async () => {
    const html = await (await fetch(`${baseUrl()}/docs`)).text();
    for (const op of operations) {
      expect(html, op).toContain(`Copy the SDK call for ${op}"`);
      expect(html.split(`Copy the SDK call for ${op}"`).length, op).toBe(
        html.split(`Copy the curl command for ${op}"`).length,
      );
    }
    for (const text of [
      "npm install onchain-intel",
      "new OnchainIntel({ apiKey: KEY",
      "intel.tokens.get(",
      'href="/llms.txt"',
    ]) {
      expect(html).toContain(text.replace(/"/g, "&quot;").replace("href=&quot;/llms.txt&quot;", 'href="/llms.txt"'));
    }
  });
});
