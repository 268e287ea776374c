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
  // Uniswap V3: factory, pool, and NonfungiblePositionManager (whose ERC-721 Transfer shares the ERC-20 topic).
  poolCreated: toEventSelector("PoolCreated(address,address,uint24,int24,address)"),
  initialize: toEventSelector("Initialize(uint160,int24)"),
  swapV3: toEventSelector("Swap(address,address,int256,int256,uint160,uint128,int24)"),
  mintV3: toEventSelector("Mint(address,address,int24,int24,uint128,uint256,uint256)"),
  burnV3: toEventSelector("Burn(address,int24,int24,uint128,uint256,uint256)"),
  collectV3: toEventSelector("Collect(address,address,int24,int24,uint128,uint128)"),
  collectProtocol: toEventSelector("CollectProtocol(address,address,uint128,uint128)"),
  flash: toEventSelector("Flash(address,address,uint256,uint256,uint256,uint256)"),
  increaseLiquidity: toEventSelector("IncreaseLiquidity(uint256,uint128,uint256,uint256)"),
  decreaseLiquidity: toEventSelector("DecreaseLiquidity(uint256,uint128,uint256,uint256)"),
  collectPosition: toEventSelector("Collect(uint256,address,uint256,uint256)"),
  // An LP locker's lock of a position NFT (devchain/contracts/LiquidityLocker.sol): read from the profile's lockers
  // only.
  locked: toEventSelector("Locked(uint256,address,bool)"),
} as const;

/** Position of a log on the chain, shared by every decoded log. */
export type LogRef = {
  block: number;
  logIndex: number;
  txHash: string;
  txIndex: number;
  blockHash: string;
  address: string;
};

export type ChainLog = LogRef &
  (
    | { kind: "transfer"; from: string; to: string; value: bigint }
    | { kind: "pairCreated"; token0: string; token1: string; pair: string }
    /**
     * A launchpad's launch (launch-event.ts); name and symbol as the event carries them, not yet cleaned (null: absent
     * or not decodable).
     */
    | {
        kind: "tokenLaunched";
        token: string;
        pair: string | null;
        creator: string | null;
        name: RawChainText | null;
        symbol: RawChainText | null;
      }
    | { kind: "mint"; amount0: bigint; amount1: bigint }
    | { kind: "burn"; amount0: bigint; amount1: bigint }
    | { kind: "swap"; amount0In: bigint; amount1In: bigint; amount0Out: bigint; amount1Out: bigint; recipient: string }
    | { kind: "sync"; reserve0: bigint; reserve1: bigint }
    | { kind: "poolCreated"; token0: string; token1: string; pool: string; fee: number; tickSpacing: number }
    | { kind: "initialize"; sqrtPriceX96: bigint; tick: number }
    /** Signed amounts: what the pool received (negative: sent). */
    | {
        kind: "swapV3";
        amount0: bigint;
        amount1: bigint;
        sqrtPriceX96: bigint;
        liquidity: bigint;
        tick: number;
        recipient: string;
      }
    | {
        kind: "mintV3";
        owner: string;
        tickLower: number;
        tickUpper: number;
        liquidity: bigint;
        amount0: bigint;
        amount1: bigint;
      }
    | {
        kind: "burnV3";
        owner: string;
        tickLower: number;
        tickUpper: number;
        liquidity: bigint;
        amount0: bigint;
        amount1: bigint;
      }
    /** Tokens leaving a V3 pool to a position's owner (Collect) or the protocol (CollectProtocol). */
    | { kind: "collectV3"; amount0: bigint; amount1: bigint }
    /** A flash loan's fees: what the pool keeps beyond what it lent. */
    | { kind: "flash"; paid0: bigint; paid1: bigint }
    | {
        kind: "increaseLiquidity" | "decreaseLiquidity";
        tokenId: bigint;
        liquidity: bigint;
        amount0: bigint;
        amount1: bigint;
      }
    | { kind: "collectPosition"; tokenId: bigint; recipient: string; amount0: bigint; amount1: bigint }
    /** An ERC-721 Transfer (read from position managers only). */
    | { kind: "nftTransfer"; from: string; to: string; tokenId: bigint }
    /** A locker took position `tokenId` for `owner`, who may or may not take it back out. */
    | { kind: "locked"; tokenId: bigint; owner: string; withdrawable: boolean }
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
const INT256_MIN = 2n ** 255n;
const UINT256_SPAN = 2n ** 256n;
const signed = (w: bigint) => (w >= INT256_MIN ? w - UINT256_SPAN : w);
const topicInt = (t: string) => Number(signed(BigInt(t)));
const wordAddress = (data: string, i: number) => `0x${data.slice(2 + i * 64 + 24, 2 + (i + 1) * 64)}`.toLowerCase();

/**
 * A log's fields after its position: `ref` (a fresh object, as logRef makes) takes them (a spread costs far more per
 * log).
 */
export const withRef = <const T extends object>(ref: LogRef, fields: T): LogRef & T => Object.assign(ref, fields);

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
  [TOPICS.poolCreated]: { name: "PoolCreated", topics: 4, words: 2 },
  [TOPICS.initialize]: { name: "Initialize", topics: 1, words: 2 },
  [TOPICS.swapV3]: { name: "Swap", topics: 3, words: 5 },
  [TOPICS.mintV3]: { name: "Mint", topics: 4, words: 4 },
  [TOPICS.burnV3]: { name: "Burn", topics: 4, words: 3 },
  [TOPICS.collectV3]: { name: "Collect", topics: 4, words: 3 },
  [TOPICS.collectProtocol]: { name: "CollectProtocol", topics: 3, words: 2 },
  [TOPICS.flash]: { name: "Flash", topics: 3, words: 4 },
  [TOPICS.increaseLiquidity]: { name: "IncreaseLiquidity", topics: 2, words: 3 },
  [TOPICS.decreaseLiquidity]: { name: "DecreaseLiquidity", topics: 2, words: 3 },
  [TOPICS.collectPosition]: { name: "Collect", topics: 2, words: 3 },
  [TOPICS.locked]: { name: "Locked", topics: 3, words: 1 },
};

/**
 * Decodes a log of a known event; null for another event (or an ERC-721 Transfer, which shares
 * the ERC-20 signature with the id indexed); a MalformedLog when the topic is ours and the
 * layout is not. Never throws on what the chain sends. Mint and Burn need their data words only;
 * a Swap's recipient is read too (what the pool sent it tells a fee-on-transfer token's cut).
 */
export function decodeLog(raw: RawLog): ChainLog | MalformedLog | null {
  const topics = raw.topics ?? [];
  const [topic0, t1, t2, t3] = topics;
  const layout = LAYOUT[topic0];
  if (!layout) return null;
  const ref = logRef(raw);
  // ERC-721 (and ERC-404's NFT side): Transfer with the token id as a fourth topic; the caller reads it from position
  // managers only.
  if (topic0 === TOPICS.transfer && topics.length === 4) {
    if (!topics.every(isTopic)) return null;
    return withRef(ref, {
      kind: "nftTransfer",
      from: topicAddress(t1),
      to: topicAddress(t2),
      tokenId: BigInt(topics[3]),
    });
  }
  const d = raw.data;
  if (typeof d !== "string" || !HEX_DATA.test(d)) return malformed(ref, layout, "data is not hex");
  if (!topics.every(isTopic)) return malformed(ref, layout, "a topic is not 32 bytes of hex");
  const words = Math.floor((d.length - 2) / 64);
  // Early ERC-20s indexed less of Transfer: what is not a topic is a data word, in order.
  if (topic0 === TOPICS.transfer && topics.length === 1 && words >= 3) {
    return withRef(ref, { kind: "transfer", from: wordAddress(d, 0), to: wordAddress(d, 1), value: word(d, 2) });
  }
  if (topic0 === TOPICS.transfer && topics.length === 2 && words >= 2) {
    return withRef(ref, { kind: "transfer", from: topicAddress(t1), to: wordAddress(d, 0), value: word(d, 1) });
  }
  if (topics.length < layout.topics)
    return malformed(ref, layout, `${topics.length} topics, ${layout.topics} expected`);
  if (words < layout.words)
    return malformed(ref, layout, `${(d.length - 2) / 2} bytes of data, ${layout.words * 32} expected`);
  return decodeLayout(ref, topic0, t1, t2, t3, d);
}

const isTopic = (t: string) => TOPIC.test(t);

const malformed = (ref: LogRef, layout: { name: string }, why: string): MalformedLog =>
  withRef(ref, { kind: "malformed", reason: `malformed ${layout.name} log: ${why}` });

/** A log of one of our events whose topics and data words are all there. */
function decodeLayout(ref: LogRef, topic0: string, t1: string, t2: string, t3: string, d: string): ChainLog {
  switch (topic0) {
    case TOPICS.transfer:
      return withRef(ref, { kind: "transfer", from: topicAddress(t1), to: topicAddress(t2), value: word(d, 0) });
    case TOPICS.pairCreated:
      return withRef(ref, {
        kind: "pairCreated",
        token0: topicAddress(t1),
        token1: topicAddress(t2),
        pair: wordAddress(d, 0),
      });
    case TOPICS.mint:
      return withRef(ref, { kind: "mint", amount0: word(d, 0), amount1: word(d, 1) });
    case TOPICS.burn:
      return withRef(ref, { kind: "burn", amount0: word(d, 0), amount1: word(d, 1) });
    case TOPICS.swap:
      return withRef(ref, {
        kind: "swap",
        amount0In: word(d, 0),
        amount1In: word(d, 1),
        amount0Out: word(d, 2),
        amount1Out: word(d, 3),
        recipient: topicAddress(t2),
      });
    case TOPICS.sync:
      return withRef(ref, { kind: "sync", reserve0: word(d, 0), reserve1: word(d, 1) });
    case TOPICS.poolCreated:
      return withRef(ref, {
        kind: "poolCreated",
        token0: topicAddress(t1),
        token1: topicAddress(t2),
        fee: Number(BigInt(t3)),
        tickSpacing: Number(signed(word(d, 0))),
        pool: wordAddress(d, 1),
      });
    case TOPICS.initialize:
      return withRef(ref, { kind: "initialize", sqrtPriceX96: word(d, 0), tick: Number(signed(word(d, 1))) });
    case TOPICS.swapV3:
      return withRef(ref, {
        kind: "swapV3",
        amount0: signed(word(d, 0)),
        amount1: signed(word(d, 1)),
        sqrtPriceX96: word(d, 2),
        liquidity: word(d, 3),
        tick: Number(signed(word(d, 4))),
        recipient: topicAddress(t2),
      });
    case TOPICS.mintV3:
      return withRef(ref, {
        kind: "mintV3",
        owner: topicAddress(t1),
        tickLower: topicInt(t2),
        tickUpper: topicInt(t3),
        liquidity: word(d, 1),
        amount0: word(d, 2),
        amount1: word(d, 3),
      });
    case TOPICS.burnV3:
      return withRef(ref, {
        kind: "burnV3",
        owner: topicAddress(t1),
        tickLower: topicInt(t2),
        tickUpper: topicInt(t3),
        liquidity: word(d, 0),
        amount0: word(d, 1),
        amount1: word(d, 2),
      });
    case TOPICS.collectV3:
      return withRef(ref, { kind: "collectV3", amount0: word(d, 1), amount1: word(d, 2) });
    case TOPICS.collectProtocol:
      return withRef(ref, { kind: "collectV3", amount0: word(d, 0), amount1: word(d, 1) });
    case TOPICS.flash:
      return withRef(ref, { kind: "flash", paid0: word(d, 2), paid1: word(d, 3) });
    case TOPICS.increaseLiquidity:
    case TOPICS.decreaseLiquidity:
      return withRef(ref, {
        kind: topic0 === TOPICS.increaseLiquidity ? "increaseLiquidity" : "decreaseLiquidity",
        tokenId: BigInt(t1),
        liquidity: word(d, 0),
        amount0: word(d, 1),
        amount1: word(d, 2),
      });
    case TOPICS.locked:
      return withRef(ref, {
        kind: "locked",
        tokenId: BigInt(t1),
        owner: topicAddress(t2),
        withdrawable: word(d, 0) !== 0n,
      });
    default:
      return withRef(ref, {
        kind: "collectPosition",
        tokenId: BigInt(t1),
        recipient: wordAddress(d, 0),
        amount0: word(d, 1),
        amount1: word(d, 2),
      });
  }
}
