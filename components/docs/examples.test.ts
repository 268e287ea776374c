import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/app/v1/document";
import { createAlertBody, updateAlertBody } from "@/lib/api/schemas/alerts";
import { searchQuery } from "@/lib/api/schemas/search";
import { curlLine } from "./examples";
import type { Document, Operation } from "./openapi-types";

const doc = openApiDocument("https://intel.example/v1") as unknown as Document;
const schemas = doc.components?.schemas ?? {};
const live = { token: `0x${"a".repeat(40)}`, wallet: `0x${"b".repeat(40)}` };
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op: op as Operation })),
);
const line = (method: string, path: string) =>
  curlLine(method, path, "https://intel.example/v1", doc.paths[path]![method]!, schemas, live);
/** The -d argument of a curl line, as the shell would pass it. */
const bodyOf = (curl: string) => {
  const quoted = / -d '((?:[^']|'\\'')*)'/.exec(curl)?.[1];
  return quoted === undefined ? undefined : JSON.parse(quoted.replace(/'\\''/g, "'"));
};

describe("the docs page's curl lines", () => {
  it("leave no path parameter unfilled: live addresses, shell variables for ids", () => {
    for (const { path, method } of operations)
      expect(line(method, path), `${method} ${path}`).not.toMatch(/[{}]\w*[{}]?(?=[^']*$)/);
    expect(line("get", "/tokens/{address}")).toContain(`/v1/tokens/${live.token}"`);
    expect(line("get", "/scores/wallet/{address}")).toContain(`/v1/scores/wallet/${live.wallet}"`);
    expect(line("patch", "/alerts/{id}")).toContain('/v1/alerts/$ALERT_ID"');
  });

  it("send a key except where none is needed, and a body the API accepts on writes", () => {
    expect(line("get", "/tokens")).toContain('-H "Authorization: Bearer $KEY"');
    const open = operations.filter(({ op }) => op.security?.length === 0);
    expect(open.length).toBeGreaterThan(0);
    for (const { path, method } of open) expect(line(method, path)).not.toContain("Authorization");
    expect(createAlertBody.safeParse(bodyOf(line("post", "/alerts"))).success).toBe(true);
    expect(updateAlertBody.safeParse(bodyOf(line("patch", "/alerts/{id}"))).success).toBe(true);
    for (const { path, method, op } of operations)
      if (op.requestBody) expect(bodyOf(line(method, path)), `${method} ${path}`).toBeDefined();
  });

  it("send every required query parameter with a value the API accepts: a live symbol, else the example", () => {
    const search = (liveValues: typeof live & { queries?: Record<string, string> }) => {
      const url = /"([^"]+)"$/.exec(
        curlLine("get", "/search", "https://intel.example/v1", doc.paths["/search"]!.get!, schemas, liveValues),
      )![1];
      return Object.fromEntries(new URL(url).searchParams);
    };
    expect(search({ ...live, queries: { q: "SHIB" } })).toEqual({ q: "SHIB" });
    const fallback = search(live);
    expect(fallback.q).not.toBe("");
    expect(searchQuery.safeParse(fallback).success).toBe(true);
  });
});
