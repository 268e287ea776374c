/**
 * The dev chain's contracts: Uniswap's, exactly as their npm packages publish them (so the
 * periphery's init-code hashes match the factories' pairs and pools), and ours, compiled offline
 * with solc-js (its bundled soljson, never a download) and kept as `{ abi, bytecode }` per contract
 * in devchain/artifacts/, recompiled only when the sources change.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Abi, Address, Hex } from "viem";
import { writeFileAtomic } from "./files";

/** Our contracts, compiled from contracts/. */
export const CONTRACT_NAMES = [
  "LaunchToken",
  "USD",
  "V2Launchpad",
  "V3Launchpad",
  "LiquidityLocker",
  "Bytes32Token",
  "NoDecimalsToken",
  "WalletFeeToken",
  "HoneypotToken",
  "MintableToken",
  "TaxToken",
  // Test-only contracts (worker/test/hostile.test.ts), never deployed by deploy.ts.
  "HostileToken",
  "FakePair",
] as const;
/** The official contracts: each package's published build, unmodified. */
const UNISWAP_ARTIFACTS = {
  WETH9: "@uniswap/v2-periphery/build/WETH9.json",
  UniswapV2Factory: "@uniswap/v2-core/build/UniswapV2Factory.json",
  UniswapV2Pair: "@uniswap/v2-core/build/UniswapV2Pair.json",
  UniswapV2Router02: "@uniswap/v2-periphery/build/UniswapV2Router02.json",
  /** A fee-on-transfer token (1% of every transfer burnt), from the V2 periphery's tests. */
  DeflatingERC20: "@uniswap/v2-periphery/build/DeflatingERC20.json",
  UniswapV3Factory: "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json",
  UniswapV3Pool: "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json",
  NFTDescriptor: "@uniswap/v3-periphery/artifacts/contracts/libraries/NFTDescriptor.sol/NFTDescriptor.json",
  /** Links NFTDescriptor at deployment (its bytecode has the library's placeholder). */
  NonfungibleTokenPositionDescriptor:
    "@uniswap/v3-periphery/artifacts/contracts/" +
    "NonfungibleTokenPositionDescriptor.sol/NonfungibleTokenPositionDescriptor.json",
  NonfungiblePositionManager:
    "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json",
  SwapRouter: "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json",
  QuoterV2: "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json",
} as const;
export type ContractName = (typeof CONTRACT_NAMES)[number] | keyof typeof UNISWAP_ARTIFACTS;
export interface Artifact {
  abi: Abi;
  bytecode: Hex;
  /** Where the bytecode has placeholders for libraries: source -> library -> byte ranges. */
  linkReferences?: Record<string, Record<string, { start: number; length: number }[]>>;
}
export type Artifacts = Record<ContractName, Artifact>;
type CompiledArtifacts = Record<(typeof CONTRACT_NAMES)[number], Artifact>;

const SOURCES_DIR = path.join(import.meta.dirname, "contracts");
export const ARTIFACTS_DIR = path.join(import.meta.dirname, "artifacts");
const MANIFEST = path.join(ARTIFACTS_DIR, "manifest.json");
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" } as const;

interface SolcOutput {
  errors?: { severity: "error" | "warning"; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

function readSources(): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(SOURCES_DIR)
    .filter((f) => f.endsWith(".sol"))
    .sort()) {
    sources[file] = { content: readFileSync(path.join(SOURCES_DIR, file), "utf8") };
  }
  return sources;
}

function sourceHash(sources: Record<string, { content: string }>): string {
  const hash = createHash("sha256").update(JSON.stringify(SETTINGS));
  for (const [file, { content }] of Object.entries(sources)) hash.update(file).update("\0").update(content);
  return hash.digest("hex");
}

function readCached(hash: string): CompiledArtifacts | undefined {
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as { sourceHash: string };
    if (manifest.sourceHash !== hash) return undefined;
    const entries = CONTRACT_NAMES.map(
      (name) => [name, JSON.parse(readFileSync(path.join(ARTIFACTS_DIR, `${name}.json`), "utf8"))] as const,
    );
    return Object.fromEntries(entries) as CompiledArtifacts;
  } catch {
    return undefined;
  }
}

async function compile(sources: Record<string, { content: string }>): Promise<CompiledArtifacts> {
  // Loaded lazily: parsing the bundled compiler takes seconds and a cached run never needs it.
  const { default: solc } = await import("solc");
  const input = {
    language: "Solidity",
    sources,
    settings: { ...SETTINGS, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  const byName = new Map<string, Artifact>();
  for (const contracts of Object.values(output.contracts)) {
    for (const [name, c] of Object.entries(contracts)) {
      byName.set(name, { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` });
    }
  }
  const entries = CONTRACT_NAMES.map((name) => {
    const artifact = byName.get(name);
    if (!artifact) throw new Error(`solc produced no contract ${name}`);
    return [name, artifact] as const;
  });
  return Object.fromEntries(entries) as CompiledArtifacts;
}

async function loadCompiled(): Promise<CompiledArtifacts> {
  const sources = readSources();
  const hash = sourceHash(sources);
  const cached = readCached(hash);
  if (cached) return cached;
  const artifacts = await compile(sources);
  for (const name of CONTRACT_NAMES) {
    writeFileAtomic(path.join(ARTIFACTS_DIR, `${name}.json`), JSON.stringify(artifacts[name]));
  }
  writeFileAtomic(MANIFEST, JSON.stringify({ sourceHash: hash, contracts: CONTRACT_NAMES }));
  return artifacts;
}

/** The published builds: Uniswap V2's (`bytecode` without 0x) and V3's Hardhat artifacts. */
function loadUniswap(): Record<keyof typeof UNISWAP_ARTIFACTS, Artifact> {
  const require = createRequire(import.meta.url);
  const entries = Object.entries(UNISWAP_ARTIFACTS).map(([name, file]) => {
    const { abi, bytecode, linkReferences } = JSON.parse(readFileSync(require.resolve(file), "utf8")) as Artifact;
    const links = linkReferences && Object.keys(linkReferences).length > 0 ? { linkReferences } : {};
    return [
      name,
      { abi, bytecode: (bytecode.startsWith("0x") ? bytecode : `0x${bytecode}`) as Hex, ...links },
    ] as const;
  });
  return Object.fromEntries(entries) as Record<keyof typeof UNISWAP_ARTIFACTS, Artifact>;
}

/** The artifact's bytecode with each library placeholder replaced by that library's address. */
export function linkedBytecode(artifact: Artifact, libraries: Record<string, Address>): Hex {
  let code = artifact.bytecode as string;
  for (const refs of Object.values(artifact.linkReferences ?? {})) {
    for (const [library, ranges] of Object.entries(refs)) {
      const address = libraries[library];
      if (!address) throw new Error(`no address for library ${library}`);
      for (const { start, length } of ranges)
        code = code.slice(0, 2 + start * 2) + address.slice(2) + code.slice(2 + (start + length) * 2);
    }
  }
  return code as Hex;
}

/** Returns every contract's ABI and bytecode, compiling ours first when their sources changed. */
export async function loadArtifacts(): Promise<Artifacts> {
  return { ...loadUniswap(), ...(await loadCompiled()) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const artifacts = await loadArtifacts();
  for (const name of Object.keys(artifacts) as ContractName[]) {
    console.log(`${name.padEnd(20)} ${(artifacts[name].bytecode.length - 2) / 2} bytes`);
  }
  console.log(`artifacts in ${ARTIFACTS_DIR} (${Date.now() - started} ms)`);
}
