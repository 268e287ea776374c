import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DATA_DIR } from "@/lib/config";
import type { ChainProfile, NamedContract } from "./types";

/** The file `deploy()` writes (devchain/): addresses of the dev chain's contracts. */
export type Deployment = {
  chainId: number;
  rpcUrl: string;
  deployBlock: number;
  weth: string;
  quoteTokens: { address: string; symbol: string; decimals: number; stable: boolean }[];
  uniswapV2: { factory: string; router: string };
  launchpads: (NamedContract & { protocol: string; event: string })[];
  otherContracts: string[];
};

export const deploymentFile = (dataDir = DATA_DIR) => path.join(dataDir, "devchain", "deployment.json");

export function readDeployment(dataDir = DATA_DIR): Deployment {
  const file = deploymentFile(dataDir);
  if (!existsSync(file)) {
    throw new Error(`No dev chain deployment at ${file}: start one with \`npm start\`, or set CHAIN_PROFILE and RPC_URL for a real chain.`);
  }
  return JSON.parse(readFileSync(file, "utf8")) as Deployment;
}

const lower = (c: NamedContract) => ({ address: c.address.toLowerCase(), name: c.name });

export function devchainProfile(d: Deployment): ChainProfile {
  return {
    name: "devchain",
    chainId: d.chainId,
    startBlock: d.deployBlock,
    // Deeper than the 20-block reorgs the tests make, so those stay recoverable.
    finalityDepth: 32,
    weth: d.weth.toLowerCase(),
    stables: d.quoteTokens.filter((q) => q.stable).map((q) => ({ address: q.address.toLowerCase(), decimals: q.decimals })),
    factories: [{ address: d.uniswapV2.factory.toLowerCase(), name: "Uniswap V2" }],
    // The indexer reads V2 launches (TokenLaunched with a pair) only.
    launchpads: d.launchpads.filter((l) => l.protocol === "uniswap-v2").map(lower),
    otherContracts: d.otherContracts.map((a) => a.toLowerCase()),
    minQuoteLiquidityUsd: 1_000,
    scanPayments: true,
    initialBlockRange: 500,
    addressChunkSize: 1_000,
  };
}
