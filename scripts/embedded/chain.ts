import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deploy } from "@/devchain/deploy";
import { type DevChain, startDevChain } from "@/devchain/node";

/**
 * The dev chain's recipe, fixed at the first start: Hardhat keeps its chain in memory, so every
 * start rebuilds it from the same seed and start time. The simulator is deterministic per
 * 2-second slot, so the rebuilt chain equals the old one block for block (hashes included) and
 * the worker resumes from its checkpoint.
 */
type ChainRecipe = { seed: number; days: number; startTimestamp: number; genesisTimestamp: number };

/** The market of a first start: its seed and days of history (the simulator's default sizes). */
export const DEMO_MARKET = { seed: 1, days: 3 } as const;

function recipe(dataDir: string): ChainRecipe {
  const file = path.join(dataDir, "devchain", "recipe.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as ChainRecipe;
  const startTimestamp = Math.floor(Date.now() / 1000) - DEMO_MARKET.days * 86_400;
  const fresh: ChainRecipe = { ...DEMO_MARKET, startTimestamp, genesisTimestamp: startTimestamp - 3_600 };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(fresh, null, 2));
  return fresh;
}

export type RunningChain = { chain: DevChain; simulator: ChildProcess };

/** Starts the node, deploys the contracts and starts the simulator (backfill, then live). */
export async function startChain(dataDir: string, port: number): Promise<RunningChain> {
  const r = recipe(dataDir);
  const chain = await startDevChain({ port, dataDir, genesisTimestamp: r.genesisTimestamp, seed: r.seed });
  await deploy(chain.rpcUrl, { dataDir });
  const args = { rpcUrl: chain.rpcUrl, dataDir, seed: r.seed, days: r.days, startTimestamp: r.startTimestamp };
  const simulator = spawn(process.execPath, ["--import", "tsx", "scripts/embedded/simulate.ts", JSON.stringify(args)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return { chain, simulator };
}

/**
 * Resolves once the rebuilt chain's head reaches `block` (the worker's checkpoint), so the
 * worker resumes where it stopped instead of taking the replay in progress for a reorg.
 */
export async function waitForHead(rpcUrl: string, block: number, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    });
    const head = Number(((await res.json()) as { result: string }).result);
    if (head >= block) return;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
