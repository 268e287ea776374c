import type { ChainProfile } from "./types";

/** Base mainnet, an example of a real chain: Uniswap V2 pairs against WETH, priced through USDC. */
export const baseProfile: ChainProfile = {
  name: "base",
  chainId: 8453,
  // An example starting point: the whole history of Base is far more than one worker should backfill.
  startBlock: 20_000_000,
  finalityDepth: 64,
  weth: "0x4200000000000000000000000000000000000006",
  stables: [{ address: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", decimals: 6 }],
  factories: [{ address: "0x8909dc15e40173ff4699343b6eb8132c65e18ec6", name: "Uniswap V2" }],
  launchpads: [],
  otherContracts: [],
  minQuoteLiquidityUsd: 5_000,
  scanPayments: false,
  initialBlockRange: 2_000,
  addressChunkSize: 500,
};
