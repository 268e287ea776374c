import { createConfig, factory } from "ponder";
import { type AbiEvent, http, parseAbi, parseAbiItem } from "viem";
import { peer } from "./peer";

const pairCreated = parseAbiItem("event PairCreated(address indexed token0, address indexed token1, address pair, uint256 pairCount)");
// The profile's launchpad event, with a `token` parameter (worker/profiles/types.ts).
const tokenLaunched = parseAbiItem(peer.launchEvent) as AbiEvent;

export default createConfig({
  database: { kind: "postgres" },
  ordering: "multichain",
  networks: {
    chain: {
      chainId: peer.chainId,
      transport: http(peer.rpcUrl),
      pollingInterval: peer.pollingIntervalMs,
      // The default (50/s) throttles a node on this machine; our worker has no such limit either.
      maxRequestsPerSecond: 10_000,
    },
  },
  contracts: {
    Factory: { network: "chain", abi: [pairCreated], address: peer.factories, startBlock: peer.startBlock },
    // Every pair the factories create; the handlers keep those that can carry a launched token's events.
    Pair: {
      network: "chain",
      abi: parseAbi([
        "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
        "event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
        "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
        "event Sync(uint112 reserve0, uint112 reserve1)",
      ]),
      address: factory({ address: peer.factories, event: pairCreated, parameter: "pair" }),
      startBlock: peer.startBlock,
    },
    // The tokens the launchpads create, from their creation block (so their first mint is seen).
    Token: {
      network: "chain",
      abi: parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"]),
      address: factory({ address: peer.launchpads, event: tokenLaunched, parameter: "token" }),
      startBlock: peer.startBlock,
    },
  },
});
