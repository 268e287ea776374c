import { createConfig, factory } from "ponder";
import { type AbiEvent, parseAbi, parseAbiItem } from "viem";
import { peer } from "./peer";

const pairCreated = parseAbiItem(
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256 pairCount)",
);
const poolCreated = parseAbiItem(
  "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)",
);
// The profile's launchpad events, each with a `token` parameter (worker/profiles/types.ts).
const tokenLaunchedV2 = parseAbiItem(peer.v2.launchpads.event) as AbiEvent;
const tokenLaunchedV3 = parseAbiItem(peer.v3.launchpads.event) as AbiEvent;
const transfer = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"]);

export default createConfig({
  database: { kind: "postgres" },
  ordering: "multichain",
  chains: {
    chain: {
      id: peer.chainId,
      rpc: peer.rpcUrl,
      // When set, new heads come by eth_subscribe, as our worker's do; otherwise both poll.
      ws: peer.wsUrl,
      pollingInterval: peer.pollingIntervalMs,
      // Ponder's advice for a development node; every run starts from an empty database anyway.
      disableCache: true,
    },
  },
  contracts: {
    Factory: { chain: "chain", abi: [pairCreated], address: peer.v2.factories, startBlock: peer.startBlock },
    FactoryV3: { chain: "chain", abi: [poolCreated], address: peer.v3.factories, startBlock: peer.startBlock },
    // Every pool the factories create; the handlers keep those that can carry a launched token's events or price WETH.
    Pair: {
      chain: "chain",
      abi: parseAbi([
        "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
        "event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
        "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
        "event Sync(uint112 reserve0, uint112 reserve1)",
      ]),
      address: factory({ address: peer.v2.factories, event: pairCreated, parameter: "pair" }),
      startBlock: peer.startBlock,
    },
    PoolV3: {
      chain: "chain",
      abi: parseAbi([
        "event Initialize(uint160 sqrtPriceX96, int24 tick)",
        "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
        "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
        "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
        "event Collect(address indexed owner, address recipient, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount0, uint128 amount1)",
        "event CollectProtocol(address indexed sender, address indexed recipient, uint128 amount0, uint128 amount1)",
        "event Flash(address indexed sender, address indexed recipient, uint256 amount0, uint256 amount1, uint256 paid0, uint256 paid1)",
      ]),
      address: factory({ address: peer.v3.factories, event: poolCreated, parameter: "pool" }),
      startBlock: peer.startBlock,
    },
    // The tokens the launchpads create, from their creation block (so their first mint is seen).
    Token: {
      chain: "chain",
      abi: transfer,
      address: factory({ address: peer.v2.launchpads.addresses, event: tokenLaunchedV2, parameter: "token" }),
      startBlock: peer.startBlock,
    },
    TokenV3: {
      chain: "chain",
      abi: transfer,
      address: factory({ address: peer.v3.launchpads.addresses, event: tokenLaunchedV3, parameter: "token" }),
      startBlock: peer.startBlock,
    },
  },
});
