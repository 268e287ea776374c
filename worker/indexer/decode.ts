import { decodeAbiParameters, parseAbiParameters, toEventSelector } from "viem";
import type { RawLog } from "./rpc";

/** The events the indexer reads, as their topic0. */
export const TOPICS = {
  transfer: toEventSelector("Transfer(address,address,uint256)"),
  pairCreated: toEventSelector("PairCreated(address,address,address,uint256)"),
  mint: toEventSelector("Mint(address,uint256,uint256)"),
  burn: toEventSelector("Burn(address,uint256,uint256,address)"),
  swap: toEventSelector("Swap(address,uint256,uint256,uint256,uint256,address)"),
  sync: toEventSelector("Sync(uint112,uint112)"),
  tokenLaunched: toEventSelector("TokenLaunched(address,address,address,string,string,uint256)"),
} as const;

/** Position of a log on the chain, shared by every decoded log. */
export type LogRef = { block: number; logIndex: number; txHash: string; txIndex: number; blockHash: string; address: string };

export type ChainLog = LogRef &
  (
    | { kind: "transfer"; from: string; to: string; value: bigint }
    | { kind: "pairCreated"; token0: string; token1: string; pair: string }
    | { kind: "tokenLaunched"; token: string; pair: string; creator: string; name: string; symbol: string; totalSupply: bigint }
    | { kind: "mint"; amount0: bigint; amount1: bigint }
    | { kind: "burn"; amount0: bigint; amount1: bigint }
    | { kind: "swap"; amount0In: bigint; amount1In: bigint; amount0Out: bigint; amount1Out: bigint }
    | { kind: "sync"; reserve0: bigint; reserve1: bigint }
  );

// The hot events have fixed layouts: slicing 32-byte words is far cheaper than a generic ABI decoder.
const topicAddress = (t: string) => `0x${t.slice(26)}`.toLowerCase();
const word = (data: string, i: number) => BigInt(`0x${data.slice(2 + i * 64, 2 + (i + 1) * 64)}`);
const wordAddress = (data: string, i: number) => `0x${data.slice(2 + i * 64 + 24, 2 + (i + 1) * 64)}`.toLowerCase();
const launchedData = parseAbiParameters("string name, string symbol, uint256 totalSupply");

/** Decodes a log of a known event, or returns null (another event, or a malformed log). */
export function decodeLog(raw: RawLog): ChainLog | null {
  const ref: LogRef = {
    block: Number(raw.blockNumber),
    logIndex: Number(raw.logIndex),
    txHash: raw.transactionHash,
    txIndex: Number(raw.transactionIndex),
    blockHash: raw.blockHash,
    address: raw.address.toLowerCase(),
  };
  const [topic0, t1, t2, t3] = raw.topics;
  const d = raw.data;
  switch (topic0) {
    case TOPICS.transfer:
      // ERC-721 Transfer shares the signature but indexes the id (4 topics).
      if (raw.topics.length !== 3 || d.length < 66) return null;
      return { ...ref, kind: "transfer", from: topicAddress(t1), to: topicAddress(t2), value: word(d, 0) };
    case TOPICS.pairCreated:
      return { ...ref, kind: "pairCreated", token0: topicAddress(t1), token1: topicAddress(t2), pair: wordAddress(d, 0) };
    case TOPICS.tokenLaunched: {
      const [name, symbol, totalSupply] = decodeAbiParameters(launchedData, d as `0x${string}`);
      return { ...ref, kind: "tokenLaunched", token: topicAddress(t1), pair: topicAddress(t2), creator: topicAddress(t3), name, symbol, totalSupply };
    }
    case TOPICS.mint:
      return { ...ref, kind: "mint", amount0: word(d, 0), amount1: word(d, 1) };
    case TOPICS.burn:
      return { ...ref, kind: "burn", amount0: word(d, 0), amount1: word(d, 1) };
    case TOPICS.swap:
      return { ...ref, kind: "swap", amount0In: word(d, 0), amount1In: word(d, 1), amount0Out: word(d, 2), amount1Out: word(d, 3) };
    case TOPICS.sync:
      return { ...ref, kind: "sync", reserve0: word(d, 0), reserve1: word(d, 1) };
    default:
      return null;
  }
}
