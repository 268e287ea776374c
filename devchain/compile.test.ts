import { statSync } from "node:fs";
import path from "node:path";
import type { AbiEvent } from "viem";
import { describe, expect, it } from "vitest";
import { ARTIFACTS_DIR, linkedBytecode, loadArtifacts } from "./compile";
import { TOKEN_LAUNCHED_EVENT } from "./deploy";

/** The event signatures the indexer depends on. */
const EXPECTED: Record<string, string[]> = {
  LaunchToken: [
    "Transfer(address indexed from, address indexed to, uint256 value)",
    "Approval(address indexed owner, address indexed spender, uint256 value)",
  ],
  WETH9: [
    "Deposit(address indexed dst, uint256 wad)",
    "Withdrawal(address indexed src, uint256 wad)",
    "Transfer(address indexed src, address indexed dst, uint256 wad)",
  ],
  USD: ["Transfer(address indexed from, address indexed to, uint256 value)"],
  UniswapV2Factory: ["PairCreated(address indexed token0, address indexed token1, address pair, uint256)"],
  UniswapV2Pair: [
    "Mint(address indexed sender, uint256 amount0, uint256 amount1)",
    "Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
    "Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, " +
      "address indexed to)",
    "Sync(uint112 reserve0, uint112 reserve1)",
    "Transfer(address indexed from, address indexed to, uint256 value)",
  ],
  V2Launchpad: [TOKEN_LAUNCHED_EVENT],
};

/** `Name(type indexed name, ...)`: the declaration, names and indexing included. */
function signature(event: AbiEvent): string {
  const inputs = event.inputs.map((i) => [i.type, i.indexed ? "indexed" : "", i.name ?? ""].filter(Boolean).join(" "));
  return `${event.name}(${inputs.join(", ")})`;
}

describe("compile", () => {
  it("produces the ABI and bytecode of every contract, from cache the second time", async () => {
    const artifacts = await loadArtifacts();
    for (const name of Object.keys(artifacts) as (keyof typeof artifacts)[]) {
      const artifact = artifacts[name];
      // A contract that links a library has placeholders until it is linked.
      const libraries = Object.fromEntries(
        Object.values(artifact.linkReferences ?? {}).flatMap((refs) =>
          Object.keys(refs).map((l) => [l, `0x${"ab".repeat(20)}` as const]),
        ),
      );
      expect(linkedBytecode(artifact, libraries), name).toMatch(/^0x[0-9a-f]{100,}$/);
      expect(artifact.abi.length).toBeGreaterThan(0);
    }
    // A cached load writes nothing: the manifest is the one the first load left.
    const manifest = path.join(ARTIFACTS_DIR, "manifest.json");
    const written = statSync(manifest).mtimeMs;
    expect(await loadArtifacts()).toEqual(artifacts);
    expect(statSync(manifest).mtimeMs).toBe(written);
  });

  it("declares exactly the event signatures the indexer expects", async () => {
    const artifacts = await loadArtifacts();
    for (const [contract, signatures] of Object.entries(EXPECTED)) {
      const events = artifacts[contract as keyof typeof artifacts].abi
        .filter((item): item is AbiEvent => item.type === "event")
        .map(signature);
      for (const expected of signatures) expect(events, contract).toContain(expected);
    }
  });

  it("gives the token, launchpad and pair the views the indexer reads", async () => {
    const artifacts = await loadArtifacts();
    const views = (name: keyof typeof artifacts) =>
      artifacts[name].abi.flatMap((item) => (item.type === "function" ? [item.name] : []));
    expect(views("LaunchToken")).toEqual(
      expect.arrayContaining(["name", "symbol", "decimals", "totalSupply", "balanceOf"]),
    );
    expect(views("V2Launchpad")).toContain("name");
    expect(views("UniswapV2Pair")).toEqual(
      expect.arrayContaining(["getReserves", "token0", "token1", "totalSupply", "balanceOf"]),
    );
  });
});
