import { toEventSelector } from "viem";
import type { RawChainText } from "@/lib/chain-text";
import type { RawLog } from "./rpc";

/** The events the indexer reads, as their topic0. */
export const TOPICS = {
  transfer: toEventSelector("Transfer(address,address,uint256)"),
  pairCreated: toEventSelector("PairCreated(address,address,address,uint256)"),
  mint: toEventSelector("Mint(address,uint256,uint256)"),
  burn: toEventSelector("Burn(address,uint256,uint256,address)"),
  swap: toEventSelector("Swap(address,uint256,uint256,uint256,uint256,address)"),
  sync: toEventSelector("Sync(uint112,uint112)"),
} as const;

/** Position of a log on the chain, shared by every decoded log. */
export type LogRef = { block: number; logIndex: number; txHash: string; txIndex: number; blockHash: string; address: string };

export type ChainLog = LogRef &
  (
    | { kind: "transfer"; from: string; to: string; value: bigint }
    | { kind: "pairCreated"; token0: string; token1: string; pair: string }
    /** A launchpad's launch (launch-event.ts); name and symbol as the event carries them, not yet cleaned (null: absent or not decodable). */
    | { kind: "tokenLaunched"; token: string; pair: string | null; creator: string | null; name: RawChainText | null; symbol: RawChainText | null }
    | { kind: "mint"; amount0: bigint; amount1: bigint }
    | { kind: "burn"; amount0: bigint; amount1: bigint }
    | { kind: "swap"; amount0In: bigint; amount1In: bigint; amount0Out: bigint; amount1Out: bigint }
    | { kind: "sync"; reserve0: bigint; reserve1: bigint }
  );

/**
 * A log with the topic of an event the indexer reads whose layout is not that event's (too few
 * topics or data words, not hex): its emitter lies about what it is. The caller quarantines it.
 */
export type MalformedLog = LogRef & { kind: "malformed"; reason: string };

const TOPIC = /^0x[0-9a-fA-F]{64}$/;
const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
// The hot events have fixed layouts: slicing 32-byte words of the hex is far cheaper than decoding bytes.
// An address topic or word keeps its low 20 bytes, as Solidity's conversion does.
const topicAddress = (t: string) => `0x${t.slice(26)}`.toLowerCase();
const word = (data: string, i: number) => BigInt(`0x${data.slice(2 + i * 64, 2 + (i + 1) * 64)}`);
const wordAddress = (data: string, i: number) => `0x${data.slice(2 + i * 64 + 24, 2 + (i + 1) * 64)}`.toLowerCase();

export const logRef = (raw: RawLog): LogRef => ({
  block: Number(raw.blockNumber),
  logIndex: Number(raw.logIndex),
  txHash: raw.transactionHash,
  txIndex: Number(raw.transactionIndex),
  blockHash: raw.blockHash,
  address: raw.address.toLowerCase(),
});

/** Data words each event needs, and the topics it has (topic0 included). */
const LAYOUT: Record<string, { name: string; topics: number; words: number }> = {
  [TOPICS.transfer]: { name: "Transfer", topics: 3, words: 1 },
  [TOPICS.pairCreated]: { name: "PairCreated", topics: 3, words: 1 },
  [TOPICS.mint]: { name: "Mint", topics: 2, words: 2 },
  [TOPICS.burn]: { name: "Burn", topics: 3, words: 2 },
  [TOPICS.swap]: { name: "Swap", topics: 3, words: 4 },
  [TOPICS.sync]: { name: "Sync", topics: 1, words: 2 },
};

/**
 * Decodes a log of a known event; null for another event (or an ERC-721 Transfer, which shares
 * the ERC-20 signature with the id indexed); a MalformedLog when the topic is ours and the
 * layout is not. Never throws on what the chain sends. Mint, Burn and Swap need their data
 * words only (the indexed sender and recipient are not read).
 */
export function decodeLog(raw: RawLog): ChainLog | MalformedLog | null {
  const ref = logRef(raw);
  const topics = raw.topics ?? [];
  const [topic0, t1, t2] = topics;
  const layout = LAYOUT[topic0];
  if (!layout) return null;
  // ERC-721 (and ERC-404's NFT side): Transfer with the token id as a fourth topic. Not ours.
  if (topic0 === TOPICS.transfer && topics.length === 4) return null;
  const malformed = (why: string): MalformedLog => ({ ...ref, kind: "malformed", reason: `malformed ${layout.name} log: ${why}` });
  const d = raw.data;
  if (typeof d !== "string" || !HEX_DATA.test(d)) return malformed("data is not hex");
  if (!topics.every((t) => TOPIC.test(t))) return malformed("a topic is not 32 bytes of hex");
  const words = Math.floor((d.length - 2) / 64);
  // Early ERC-20s indexed less of Transfer: what is not a topic is a data word, in order.
  if (topic0 === TOPICS.transfer && topics.length === 1 && words >= 3) {
    return { ...ref, kind: "transfer", from: wordAddress(d, 0), to: wordAddress(d, 1), value: word(d, 2) };
  }
  if (topic0 === TOPICS.transfer && topics.length === 2 && words >= 2) {
    return { ...ref, kind: "transfer", from: topicAddress(t1), to: wordAddress(d, 0), value: word(d, 1) };
  }
  if (topics.length < layout.topics) return malformed(`${topics.length} topics, ${layout.topics} expected`);
  if (words < layout.words) return malformed(`${(d.length - 2) / 2} bytes of data, ${layout.words * 32} expected`);
  const w = (i: number) => word(d, i);
  switch (topic0) {
    case TOPICS.transfer:
      return { ...ref, kind: "transfer", from: topicAddress(t1), to: topicAddress(t2), value: w(0) };
    case TOPICS.pairCreated:
      return { ...ref, kind: "pairCreated", token0: topicAddress(t1), token1: topicAddress(t2), pair: wordAddress(d, 0) };
    case TOPICS.mint:
      return { ...ref, kind: "mint", amount0: w(0), amount1: w(1) };
    case TOPICS.burn:
      return { ...ref, kind: "burn", amount0: w(0), amount1: w(1) };
    case TOPICS.swap:
      return { ...ref, kind: "swap", amount0In: w(0), amount1In: w(1), amount0Out: w(2), amount1Out: w(3) };
    default:
      return { ...ref, kind: "sync", reserve0: w(0), reserve1: w(1) };
  }
}
