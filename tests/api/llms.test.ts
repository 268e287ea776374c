import { describe, expect, it } from "vitest";
import { V1_ROUTES } from "@/app/mcp/v1-routes";
import { openApiDocument } from "@/lib/api/openapi";
import { listPlans } from "@/lib/queries/plans";
import { baseUrl, testDb } from "./helpers";

const paths = Object.keys(openApiDocument("http://x/v1").paths ?? {});

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

describe("the /mcp route's in-process dispatch", () => {
  it("knows the route of every path of the OpenAPI document", () => {
    expect(Object.keys(V1_ROUTES).sort()).toEqual(expect.arrayContaining(paths.sort()));
  });
});
