import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/** The SDK as a browser bundles it: minified ESM, openapi-fetch included. */
async function browserBundle() {
  const result = await build({
    entryPoints: ["packages/sdk/src/index.ts"],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].contents;
}

describe("the SDK bundle", () => {
  it("builds for a browser (no Node-only import) and is as small as its README says", async () => {
    const bundle = await browserBundle();
    const source = new TextDecoder().decode(bundle);
    expect(source).not.toMatch(/\bfrom\s*"node:|\brequire\(/);
    const kb = (n: number) => Math.round(n / 100) / 10;
    const stated = /minified: ([\d.]+) kB, ([\d.]+) kB gzipped/.exec(readFileSync("packages/sdk/README.md", "utf8"));
    const actual = [kb(bundle.byteLength), kb(gzipSync(bundle).byteLength)];
    // The README's figures within 10%: update them when the SDK grows.
    expect(stated, "README states the size").not.toBeNull();
    expect(Math.abs(actual[0] - Number(stated![1])) / actual[0], `minified ${actual[0]} kB`).toBeLessThan(0.1);
    expect(Math.abs(actual[1] - Number(stated![2])) / actual[1], `gzipped ${actual[1]} kB`).toBeLessThan(0.1);
  });
});

const run = promisify(execFile);

describe("the packages' builds", () => {
  it("compile to ESM with types, and the MCP server's bin starts from them", async () => {
    await run("npm", ["run", "--silent", "packages:build"]);
    const sdk = await import(path.resolve("packages/sdk/dist/index.js"));
    expect(typeof sdk.OnchainIntel).toBe("function");
    expect(sdk.RISK_FLAGS.length).toBeGreaterThan(0);
    expect(readFileSync("packages/sdk/dist/index.d.ts", "utf8")).toContain("OnchainIntel");
    const { ONCHAIN_INTEL_API_KEY: _, ...env } = process.env;
    const bin = run(process.execPath, ["packages/mcp/dist/bin.js"], { env });
    await expect(bin).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("set ONCHAIN_INTEL_API_KEY") });
  });
});
