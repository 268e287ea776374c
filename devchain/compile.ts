/**
 * Compiles the dev chain's Solidity sources offline with solc-js (its bundled soljson, never a
 * download) and keeps `{ abi, bytecode }` per contract in devchain/artifacts/, recompiling only
 * when the sources change.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Abi, Hex } from "viem";
import { writeFileAtomic } from "./files";

export const CONTRACT_NAMES = [
  "LaunchToken",
  "WETH",
  "USD",
  "DevSwapFactory",
  "DevSwapPair",
  "DevSwapRouter",
  "Launchpad",
  // Test-only contracts (worker/test/hostile.test.ts), never deployed by deploy.ts.
  "HostileToken",
  "FakePair",
] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];
export interface Artifact {
  abi: Abi;
  bytecode: Hex;
}
export type Artifacts = Record<ContractName, Artifact>;

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

function readCached(hash: string): Artifacts | undefined {
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as { sourceHash: string };
    if (manifest.sourceHash !== hash) return undefined;
    const entries = CONTRACT_NAMES.map((name) => [name, JSON.parse(readFileSync(path.join(ARTIFACTS_DIR, `${name}.json`), "utf8"))] as const);
    return Object.fromEntries(entries) as Artifacts;
  } catch {
    return undefined;
  }
}

async function compile(sources: Record<string, { content: string }>): Promise<Artifacts> {
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
  return Object.fromEntries(entries) as Artifacts;
}

/** Returns every contract's ABI and bytecode, compiling first when the sources changed. */
export async function loadArtifacts(): Promise<Artifacts> {
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const artifacts = await loadArtifacts();
  for (const name of CONTRACT_NAMES) {
    console.log(`${name.padEnd(16)} ${(artifacts[name].bytecode.length - 2) / 2} bytes`);
  }
  console.log(`artifacts in ${ARTIFACTS_DIR} (${Date.now() - started} ms)`);
}
