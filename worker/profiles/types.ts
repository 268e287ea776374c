/** What the indexer needs to know about one chain: where to look and how to price. */
export type NamedContract = { address: string; name: string };

export type ChainProfile = {
  name: string;
  chainId: number;
  /** First block to index; nothing before it is fetched. */
  startBlock: number;
  /** Blocks deeper than this below the head are final: synced in bulk, never rolled back. */
  finalityDepth: number;
  weth: string;
  /** USD stablecoins, priced at 1. */
  stables: { address: string; decimals: number }[];
  /** Uniswap-V2-style factories (PairCreated). */
  factories: NamedContract[];
  /** Launchpads (TokenLaunched). When empty, tokens are discovered from PairCreated against WETH. */
  launchpads: NamedContract[];
  /** Other known contracts (routers) that show up as senders or receivers: tagged as contracts. */
  otherContracts: string[];
  /** Quote-side USD a pair must hold before it may price its token (no prices from dust pools). */
  minQuoteLiquidityUsd: number;
  /**
   * Read every transaction of every block for native-currency payments, so the first funder of
   * each wallet is complete. Affordable on a dev chain; on a busy chain only the blocks holding
   * indexed logs are read, and funders stay unknown.
   */
  scanPayments: boolean;
  /** First eth_getLogs range; it adapts to provider limits and to the density of logs. */
  initialBlockRange: number;
  /** Addresses per eth_getLogs request (providers limit the filter size). */
  addressChunkSize: number;
};
