import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  it("keeps a path on this site, query included", () => {
    expect(safeReturnPath("/tokens?sort=volume")).toBe("/tokens?sort=volume");
  });

  it.each([["https://evil.example/"], ["//evil.example/x"], ["javascript:alert(1)"], [""], [null], [42]])(
    "refuses %j and goes home instead",
    (value) => expect(safeReturnPath(value)).toBe("/"),
  );
});
