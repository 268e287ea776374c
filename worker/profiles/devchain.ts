import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DATA_DIR } from "@/lib/config";
import type { ChainProfile, Factory, Launchpad, NamedContract, ProtocolKind, QuoteToken } from "./types";

/** The file the dev chain's deploy writes (devchain/): addresses of its contracts. */
export type Deployment = {
  chainId: number;
  rpcUrl: string;
  deployBlock: number;
  weth: string;
  quoteTokens: QuoteToken[];
  uniswapV2: { factory: string; router: string };
  uniswapV3?: { factory: string; positionManager: string; swapRouter: string; quoterV2: string; feeTiers: number[] };
  launchpads: { address: string; name: string; protocol: ProtocolKind; event: string }[];
  lockers: NamedContract[];
  otherContracts: string[];
};

/** The deployment file of the DevSwap dev chain (before the official Uniswap contracts): read as a Deployment. */
type DevSwapDeployment = {
  chainId: number;
  rpcUrl: string;
  deployBlock: number;
  weth: string;
  usd: string;
  usdDecimals: number;
  factory: NamedContract;
  router: string;
  launchpads: NamedContract[];
};

/** The DevSwap launchpads' event (devchain/contracts/Launchpad.sol). */
export const DEVSWAP_LAUNCH_EVENT =
  "event TokenLaunched(address indexed token, address indexed pair, address indexed creator, " +
  "string name, string symbol, uint256 totalSupply)";

export const deploymentFile = (dataDir = DATA_DIR) => path.join(dataDir, "devchain", "deployment.json");

export function readDeployment(dataDir = DATA_DIR): Deployment {
  const file = deploymentFile(dataDir);
  if (!existsSync(file)) {
    throw new Error(
      `No dev chain deployment at ${file}: start one with \`npm start\`, ` +
        "or set CHAIN_PROFILE and RPC_URL for a real chain.",
    );
  }
  return asDeployment(JSON.parse(readFileSync(file, "utf8")));
}

/** A deployment file in either shape, as a Deployment. */
export function asDeployment(d: Deployment | DevSwapDeployment): Deployment {
  if ("uniswapV2" in d) return d;
  return {
    chainId: d.chainId,
    rpcUrl: d.rpcUrl,
    deployBlock: d.deployBlock,
    weth: d.weth,
    quoteTokens: [
      { address: d.weth, symbol: "WETH", decimals: 18, stable: false },
      { address: d.usd, symbol: "USD", decimals: d.usdDecimals, stable: true },
    ],
    uniswapV2: { factory: d.factory.address, router: d.router },
    launchpads: d.launchpads.map((l) => ({ ...l, protocol: "uniswap-v2", event: DEVSWAP_LAUNCH_EVENT })),
    lockers: [],
    otherContracts: [],
  };
}

const lower = (a: string) => a.toLowerCase();
const named = (c: NamedContract) => ({ address: lower(c.address), name: c.name });

export function devchainProfile(input: Deployment | DevSwapDeployment): ChainProfile {
  const d = asDeployment(input);
  const factories: Factory[] = [{ address: lower(d.uniswapV2.factory), name: "Uniswap V2", protocol: "uniswap-v2" }];
  if (d.uniswapV3) factories.push({ address: lower(d.uniswapV3.factory), name: "Uniswap V3", protocol: "uniswap-v3" });
  const launchpads: Launchpad[] = d.launchpads.map((l) => ({ ...l, address: lower(l.address) }));
  return {
    name: "devchain",
    chainId: d.chainId,
    startBlock: d.deployBlock,
    // Deeper than the 20-block reorgs the tests make, so those stay recoverable.
    finalityDepth: 32,
    weth: lower(d.weth),
    quoteTokens: d.quoteTokens.map((q) => ({ ...q, address: lower(q.address) })),
    factories,
    positionManagers: d.uniswapV3
      ? [{ address: lower(d.uniswapV3.positionManager), name: "Uniswap V3 Positions" }]
      : [],
    launchpads,
    // Tokens launched outside the launchpads (the deployment's quirk tokens, anyone's pool) are indexed too.
    poolTokens: true,
    lockers: d.lockers.map(named),
    otherContracts: [d.uniswapV2.router, ...(d.uniswapV3 ? [d.uniswapV3.swapRouter] : []), ...d.otherContracts].map(
      lower,
    ),
    minQuoteLiquidityUsd: 1_000,
    scanPayments: true,
    initialBlockRange: 500,
    addressChunkSize: 1_000,
  };
}
