import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BULK_LOAD_NODE_FLAGS, INDEXER_NODE_FLAGS } from "./node-flags";

const scripts: Record<string, string> = JSON.parse(readFileSync("package.json", "utf8")).scripts;

describe("node flags", () => {
  it.each<readonly [string, string[]]>([
    ["worker", INDEXER_NODE_FLAGS],
    ...["bench:backfill", "bench:api", "bench:scale", "bench:pages"].map(
      (name) => [name, BULK_LOAD_NODE_FLAGS] as const,
    ),
  ])("are what npm run %s starts node with", (name, flags) => {
    expect(scripts[name]).toMatch(new RegExp(`^node ${flags.join(" ")} --import tsx `));
  });
});
