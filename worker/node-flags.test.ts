import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { INDEXER_NODE_FLAGS } from "./node-flags";

const scripts: Record<string, string> = JSON.parse(readFileSync("package.json", "utf8")).scripts;

describe("INDEXER_NODE_FLAGS", () => {
  it.each(["worker", "bench:backfill"])("are what npm run %s starts node with", (name) => {
    expect(scripts[name]).toMatch(new RegExp(`^node ${INDEXER_NODE_FLAGS.join(" ")} --import tsx `));
  });
});
