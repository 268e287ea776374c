import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as weights from "./weights";

const doc = readFileSync(path.resolve(import.meta.dirname, "../../docs/methodology.md"), "utf8");

describe("docs/methodology.md", () => {
  it("documents the current method version", () => {
    expect(doc).toContain(`\`${weights.METHOD_VERSION}\``);
  });

  it("documents every weight and threshold set of weights.ts", () => {
    const undocumented = Object.keys(weights).filter((name) => !doc.includes(name));
    expect(undocumented).toEqual([]);
  });
});
