import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Address, Hex } from "viem";
import { type Deployment, deploy } from "../deploy";
import { historyAt } from "../history-clock";
import { startDevChain } from "../node";
import { RpcClient } from "../rpc";
import type { GroundTruth } from "../simulator/ground-truth";
import { runSimulation, type SimulationOptions } from "../simulator/runner";

/** A log as eth_getLogs and receipts return it. */
export interface Log {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  transactionHash: Hex;
}

/** A log's data as 32-byte words. */
export const words = (data: Hex) => (data.slice(2).match(/.{64}/g) ?? []).map((w) => BigInt(`0x${w}`));
/** The address in an indexed topic (or any 32-byte word). */
export const topicAddress = (topic: Hex) => `0x${topic.slice(26)}` as Address;

/** A simulation run on a dev chain: what the simulator tests check against the chain. */
export type SimulatedChain = {
  deployment: Deployment;
  /** The ground truth as its file holds it (what consumers read). */
  truth: GroundTruth;
  rpc: RpcClient;
  /** Every log of the chain, deployment included. */
  logs: Log[];
  /** Stops the chain and deletes its data directory. */
  close: () => Promise<void>;
};

/**
 * Starts a dev chain at the pinned history start (devchain/history-clock.ts) in a directory of its
 * own, deploys the contracts, runs the simulation with `options` and reads back its ground truth
 * and every log.
 */
export async function simulateOnDevChain(
  options: Omit<SimulationOptions, "rpcUrl" | "deployment" | "startTimestamp" | "groundTruthPath">,
): Promise<SimulatedChain> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "devchain-sim-"));
  const truthPath = path.join(dataDir, "devchain", "ground-truth.json");
  const { genesisTimestamp, startTimestamp } = historyAt();
  const chain = await startDevChain({ dataDir, seed: options.seed, genesisTimestamp });
  const close = async () => {
    await chain.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deployment = await deploy(chain.rpcUrl, { dataDir });
    await runSimulation({ ...options, rpcUrl: chain.rpcUrl, deployment, startTimestamp, groundTruthPath: truthPath });
    const truth = JSON.parse(readFileSync(truthPath, "utf8")) as GroundTruth;
    const rpc = new RpcClient(chain.rpcUrl);
    const logs = await rpc.call<Log[]>("eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }]);
    return { deployment, truth, rpc, logs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
