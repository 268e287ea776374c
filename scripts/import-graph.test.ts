import { describe, expect, it } from "vitest";
import { circles, importGraph, type Layer, layerOf, layerViolations } from "./import-graph";

const graph = importGraph(process.cwd(), ["app", "components", "lib", "db", "proxy.ts", "instrumentation.ts"]);

/**
 * The layering of docs/architecture.md ("Dependencies point one way"): what each folder may
 * import besides itself. A nested folder's rule wins over its parent's. worker/ and the scripts
 * are left to their own tests.
 */
const LEAVES = ["lib/domain", "lib/random.ts", "lib/chain-text.ts"];
const BASE = [...LEAVES, "lib/config.ts", "lib/log.ts", "lib/cache.ts", "db"];
const LAYERS: Layer[] = [
  { folder: "lib/domain", may: [] },
  { folder: "lib/random.ts", may: [] },
  { folder: "lib/chain-text.ts", may: [] },
  { folder: "lib/config.ts", may: ["lib/auth/ip.ts"] },
  { folder: "lib/log.ts", may: ["lib/config.ts"] },
  { folder: "lib/cache.ts", may: ["lib/config.ts"], typesFrom: ["db"] },
  { folder: "db", may: ["lib/config.ts", "lib/domain"] },
  { folder: "lib/scoring", may: LEAVES, typesFrom: ["db"] },
  { folder: "lib/tokens", may: BASE },
  { folder: "lib/queries", may: [...BASE, "lib/scoring", "lib/tokens"], typesFrom: ["lib/api/schemas"] },
  { folder: "lib/keys", may: [...BASE, "lib/queries"] },
  { folder: "lib/alerts", may: [...BASE, "lib/scoring", "lib/queries", "lib/keys"] },
  { folder: "lib/api", may: [...BASE, "lib/scoring", "lib/tokens", "lib/queries", "lib/keys", "lib/alerts"] },
  { folder: "lib/auth", may: [...BASE, "lib/queries", "lib/keys", "lib/api"] },
  { folder: "lib/billing", may: [...BASE, "lib/queries", "lib/keys", "lib/api"] },
  { folder: "components", may: ["lib"], typesFrom: ["db"] },
  { folder: "app", may: ["components", "lib", "db"] },
  { folder: "proxy.ts", may: ["lib", "db"] },
  { folder: "instrumentation.ts", may: ["lib", "db"] },
];

describe("the import graph", () => {
  it("has no circle in lib/, app/ or components/", () => {
    expect(circles(graph, (f) => /^(lib|app|components)\//.test(f))).toEqual([]);
  });

  it("places every file in a layer", () => {
    expect(graph.files.filter((f) => !layerOf(LAYERS, f))).toEqual([]);
  });

  it("points one way, as docs/architecture.md draws it", () => {
    expect(layerViolations(graph, LAYERS)).toEqual([]);
  });

  it("finds a circle and an edge against the layers when there is one", () => {
    const made = {
      files: ["lib/a.ts", "lib/b.ts", "lib/c.ts"],
      edges: [
        { from: "lib/a.ts", to: "lib/b.ts", typeOnly: false },
        { from: "lib/b.ts", to: "lib/a.ts", typeOnly: false },
        { from: "lib/b.ts", to: "lib/c.ts", typeOnly: false },
        { from: "lib/c.ts", to: "lib/b.ts", typeOnly: true },
      ],
    };
    expect(circles(made)).toEqual([["lib/a.ts", "lib/b.ts"]]);
    const layers = [
      { folder: "lib/c.ts", may: [] },
      { folder: "lib/b.ts", may: ["lib/a.ts"], typesFrom: [] },
    ];
    expect(layerViolations(made, layers)).toEqual(["lib/b.ts -> lib/c.ts", "lib/c.ts -> lib/b.ts (types)"]);
  });
});
