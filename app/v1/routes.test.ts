import { readdirSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { V1_ROUTES } from "@/app/mcp/v1-routes";
import { V1_PATHS } from "./document";

/** Routes without an operation: the document itself, the health probe (the catch-all is no folder of its own). */
const UNDOCUMENTED = ["/openapi.json", "/health"];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

type Handler = (req: NextRequest, args: { params: Promise<object> }) => Promise<Response>;

/** Every folder under app/v1 with a route.ts, as its OpenAPI path ({name} for [name]); not the catch-all. */
function routeFolders(dir = path.resolve("app/v1"), prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isFile()) return e.name === "route.ts" ? [prefix] : [];
    if (!e.isDirectory() || e.name.startsWith("[[")) return [];
    return routeFolders(path.join(dir, e.name), `${prefix}/${e.name.replace(/^\[(\w+)\]$/, "{$1}")}`);
  });
}

const folderOf = (p: string) => `./${p.slice(1).replace(/\{(\w+)\}/g, "[$1]")}`;
const routes = routeFolders();

describe("the /v1 routes against the OpenAPI paths (app/v1/document.ts)", () => {
  it("documents every route, at the folder of its route.ts", async () => {
    expect(routes.filter((r) => !UNDOCUMENTED.includes(r)).sort()).toEqual(Object.keys(V1_PATHS).sort());
    for (const [p, operations] of Object.entries(V1_PATHS)) {
      const beside = await import(/* @vite-ignore */ `${folderOf(p)}/operation`);
      expect(beside.operations, p).toBe(operations);
    }
  });

  it("serves exactly the methods each path's operations declare, and 405 with Allow for the others", async () => {
    for (const [p, operations] of Object.entries(V1_PATHS)) {
      const module = (await import(/* @vite-ignore */ `${folderOf(p)}/route`)) as Record<string, Handler>;
      const declared = Object.keys(operations).map((m) => m.toUpperCase());
      for (const method of METHODS.filter((m) => !declared.includes(m))) {
        const res = await module[method](new NextRequest(`http://x/v1${p}`, { method }), {
          params: Promise.resolve({}),
        });
        expect(res.status, `${method} ${p}`).toBe(405);
        expect(res.headers.get("allow")?.split(", ").sort(), `${method} ${p}`).toEqual(declared.sort());
      }
    }
  });

  it("dispatches every route in process for /mcp (app/mcp/v1-routes.ts), to its own module", async () => {
    const dispatched = Object.keys(V1_ROUTES);
    expect(dispatched.filter((p) => !routes.includes(p))).toEqual([]);
    expect(Object.keys(V1_PATHS).filter((p) => !dispatched.includes(p))).toEqual([]);
    for (const p of dispatched) expect(V1_ROUTES[p], p).toBe(await import(/* @vite-ignore */ `${folderOf(p)}/route`));
  });
});
