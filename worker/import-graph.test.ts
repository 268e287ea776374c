import { describe, expect, it } from "vitest";
import { circles, importGraph, type Layer, layerViolations } from "@/scripts/import-graph";

const graph = importGraph(process.cwd(), ["worker"]);

/**
 * derive reads and writes the database only: of the indexer it may name the range's types, the
 * chain state, the transform's rows and the quarantine's error, never a module that reads the chain.
 */
const DERIVE: Layer = {
  folder: "worker/derive",
  may: [
    "lib",
    "db",
    "worker/profiles",
    "worker/indexer/range.ts",
    "worker/indexer/sql.ts",
    "worker/indexer/state.ts",
    "worker/indexer/transform.ts",
    "worker/indexer/quarantine.ts",
  ],
};

/** The worker's imports point one way: the sync engine, its sync modules, a range's stages, derive. */
describe("the worker's import graph", () => {
  it("has no circle, type-only imports included (a circle of types ties two modules' meanings together)", () => {
    expect(graph.files.length).toBeGreaterThan(50);
    expect(circles({ ...graph, edges: graph.edges.map((e) => ({ ...e, typeOnly: false })) })).toEqual([]);
  });

  it("keeps derive off the chain", () => {
    expect(layerViolations(graph, [DERIVE])).toEqual([]);
  });
});
