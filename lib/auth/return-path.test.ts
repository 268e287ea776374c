import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  it("keeps a path on this site, query and fragment included", () => {
    expect(safeReturnPath("/tokens?sort=volume")).toBe("/tokens?sort=volume");
    expect(safeReturnPath("/alerts#new")).toBe("/alerts#new");
    expect(safeReturnPath("/a/../keys")).toBe("/keys");
  });

  it.each([
    ["https://evil.example/"],
    ["//evil.example/x"],
    ["javascript:alert(1)"],
    [""],
    [null],
    [42],
    // /signin?callbackUrl=/%5Cevil.example arrives decoded: browsers read `/\` as `//`.
    ["/\\evil.example"],
    ["/\\/evil.example"],
    // Browsers drop tabs and newlines from URLs: `/<TAB>/evil.example` is `//evil.example`.
    ["/\t/evil.example"],
    ["/\n/evil.example"],
    ["/\u0000x"],
    // Resolves to `//evil.example`.
    ["/.//evil.example"],
    ["/a/..//evil.example"],
  ])("refuses %j and goes home instead", (value) => expect(safeReturnPath(value)).toBe("/"));
});
