import { OnchainIntel } from "onchain-intel";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/app/v1/document";
import { SDK_OPERATIONS, sdkLine } from "./sdk-examples";

const doc = openApiDocument("https://intel.example/v1");
const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
  Object.keys(item as object).map((method) => ({ path, method })),
);
const live = { token: `0x${"a".repeat(40)}`, wallet: `0x${"b".repeat(40)}` };

describe("the docs page's SDK lines", () => {
  it("cover every operation of the document, and no other", () => {
    expect(SDK_OPERATIONS.sort()).toEqual(
      operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort(),
    );
  });

  it("call methods the client has, with the live addresses", () => {
    const intel = new OnchainIntel({ apiKey: "ocd_live_x" }) as unknown as Record<string, Record<string, unknown>>;
    for (const { method, path } of operations) {
      const line = sdkLine(method, path, live)!;
      for (const [, chain] of line.matchAll(/\bintel\.([\w.]+)\(/g)) {
        const parts = chain.split(".");
        const target = parts.length === 1 ? intel[parts[0]] : intel[parts[0]]?.[parts[1]];
        expect(typeof target, `${method} ${path}: intel.${chain}`).toBe("function");
      }
    }
    expect(sdkLine("get", "/tokens/{address}", live)).toContain(live.token);
    expect(sdkLine("get", "/wallets/{address}", live)).toContain(live.wallet);
  });
});
