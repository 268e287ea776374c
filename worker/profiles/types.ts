/** What the indexer needs to know about one chain: where to look and how to price. Plain data. */
export type NamedContract = { address: string; name: string };

/** The pool protocols the indexer reads. */
export type ProtocolKind = "uniswap-v2" | "uniswap-v3";

/** A factory: PairCreated (uniswap-v2) or PoolCreated (uniswap-v3). */
export type Factory = NamedContract & { protocol: ProtocolKind };

/**
 * A token prices may be quoted in: the wrapped native token, priced through stablecoin pools, or a USD stablecoin,
 * priced at 1.
 */
export type QuoteToken = { address: string; symbol: string; decimals: number; stable: boolean };

/**
 * A launchpad and the event it emits when it launches a token, as a human-readable Solidity event
 * with parameter names (`event TokenLaunched(address indexed token, address indexed pair, ...)`):
 * the indexer reads the parameters named token, pool or pair, creator, name and symbol
 * (launchpad-event.ts); only `token` is required.
 */
export type Launchpad = NamedContract & { protocol: ProtocolKind; event: string };

export type ChainProfile = {
  name: string;
  chainId: number;
  /** First block to index; nothing before it is fetched. */
  startBlock: number;
  /** Blocks deeper than this below the head are final: synced in bulk, never rolled back. */
  finalityDepth: number;
  /** The wrapped native token (one of quoteTokens, not stable). */
  weth: string;
  quoteTokens: QuoteToken[];
  factories: Factory[];
  /** Uniswap V3 NonfungiblePositionManagers: their position NFTs are the V3 LP positions. */
  positionManagers: NamedContract[];
  /** Launchpads: a token they announce is indexed from its launch, with its creator and launch pool. */
  launchpads: Launchpad[];
  /**
   * Tokens also come from new pools of the factories: the side that is not a quote token of a pool
   * against one (WETH or a stablecoin), its name, symbol and decimals read by eth_call. Off to index
   * the launchpads' tokens only.
   */
  poolTokens: boolean;
  /** LP lockers: LP tokens (V2) or position NFTs (V3) they hold are locked liquidity, and they are no holders. */
  lockers: NamedContract[];
  /** Other known contracts (routers) that show up as senders or receivers: tagged as contracts. */
  otherContracts: string[];
  /** Quote-side USD a pool must hold before it may price its token (no prices from dust pools). */
  minQuoteLiquidityUsd: number;
  /**
   * Read every transaction of every block for native-currency payments, so the first funder of
   * each wallet is complete. Affordable on a dev chain; on a busy chain only the blocks already
   * fetched (those holding indexed logs) are read, and funders also come from WETH and stablecoin
   * transfers into wallets.
   */
  scanPayments: boolean;
  /** First eth_getLogs range; it adapts to provider limits and to the density of logs. */
  initialBlockRange: number;
  /** Addresses per eth_getLogs request (providers limit the filter size). */
  addressChunkSize: number;
};
