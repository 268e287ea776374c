import type { ChainProfile } from "./types";

/**
 * Base mainnet (chain id 8453): Uniswap V2 and V3, priced through WETH and USDC. Addresses as published by Uniswap
 * (https://docs.uniswap.org/contracts/v3/reference/deployments/base-deployments,
 * https://docs.uniswap.org/contracts/v2/reference/smart-contracts/v2-deployments; also
 * https://docs.base.org/chain/contracts) and by Circle for native USDC
 * (https://developers.circle.com/stablecoins/usdc-contract-addresses). WETH is the OP Stack predeploy
 * (https://docs.optimism.io/stack/smart-contracts#weth9). No launchpad and no locker is listed: tokens are found
 * through their first pool against WETH or USDC.
 */
export const baseProfile: ChainProfile = {
  name: "base",
  chainId: 8453,
  // An example starting point: the whole history of Base is far more than one worker should backfill.
  startBlock: 20_000_000,
  finalityDepth: 64,
  weth: "0x4200000000000000000000000000000000000006",
  quoteTokens: [
    { address: "0x4200000000000000000000000000000000000006", symbol: "WETH", decimals: 18, stable: false },
    { address: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", symbol: "USDC", decimals: 6, stable: true },
  ],
  factories: [
    { address: "0x8909dc15e40173ff4699343b6eb8132c65e18ec6", name: "Uniswap V2", protocol: "uniswap-v2" },
    { address: "0x33128a8fc17869897dce68ed026d694621f6fdfd", name: "Uniswap V3", protocol: "uniswap-v3" },
  ],
  positionManagers: [{ address: "0x03a520b32c04bf3beef7beb72e919cf822ed34f1", name: "Uniswap V3 Positions" }],
  launchpads: [],
  poolTokens: true,
  lockers: [],
  otherContracts: [
    // Uniswap V2 Router02, V3 SwapRouter02 and UniversalRouter (same sources).
    "0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24",
    "0x2626664c2603336e57b271c5c0b26f421741e481",
    "0x198ef79f1f515f02dfe9e3115ed9fc07183f02fc",
  ],
  minQuoteLiquidityUsd: 5_000,
  scanPayments: false,
  initialBlockRange: 2_000,
  addressChunkSize: 500,
};
