import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCircles, importGraph } from "@/scripts/import-graph";

/** The worker's imports point one way: fetch, transform, write, derive, each below its caller. */
describe("the worker's import graph", () => {
  it("has no circle", () => {
    const graph = importGraph("worker");
    expect(graph.size).toBeGreaterThan(50);
    expect(importCircles(graph)).toEqual([]);
  });
});

describe("importCircles", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "import-graph-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };

  it("finds circles through relative, `@/` and type-only imports, and none where imports point one way", () => {
    write("w/a.ts", `import { b } from "./b";\nexport const a = b;`);
    write("w/b.ts", `import type { C } from "@/w/sub/c";\nexport const b = 1 as C;`);
    write("w/sub/c.ts", `export type { A } from "../a.js";\nexport type C = number;`);
    write("w/sub/index.ts", `import "./self";`);
    write("w/sub/self.ts", `import "./self";\nimport "viem";`);
    write("w/one-way.ts", `import { a } from "./a";\nimport "./sub";\nexport const d = a;`);
    write("w/a.test.ts", `import "./one-way";`);
    const graph = importGraph("w", root);
    expect(graph.get("w/one-way.ts")).toEqual(["w/a.ts", "w/sub/index.ts"]);
    expect(graph.has("w/a.test.ts")).toBe(false);
    expect(importCircles(graph)).toEqual([["w/a.ts", "w/b.ts", "w/sub/c.ts"], ["w/sub/self.ts"]]);
  });
});
