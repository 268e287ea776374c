import type { TextAnomaly } from "@/lib/chain-text";
import type { ProtocolKind } from "../profiles";
import type { ChainLog } from "./decode";

/**
 * What one block range carries from fetch to write: every chain read it needs, checked, before
 * anything of it is transformed or written. Types only, so every stage can name them.
 */

/** Everything one block range contributes, fetched and checked, before it is written. */
export type RangeData = {
  from: number;
  to: number;
  /** Stage-two logs (tokens and pools) in chain order. */
  logs: ChainLog[];
  blocks: Map<number, BlockData>;
  tokens: NewToken[];
  pools: NewPool[];
  fundings: Funding[];
  /** Each recipient's first quote-token payment from an account without code in this range. */
  quotePayments: QuotePayment[];
  /** Entities this range takes out of indexing (quarantine.ts); their logs are already left out. */
  quarantined: Quarantine[];
};

export type BlockData = {
  number: number;
  hash: string;
  parentHash: string;
  /** Unix seconds. */
  timestamp: number;
  /** Sender of each transaction (the trader of a swap or liquidity change). */
  txFrom: Map<string, string>;
  /**
   * Whether the header is stored: every block of a live range (the reorg walk-back needs them),
   * only blocks holding indexed logs in a backfill (the rest are final and uninteresting).
   */
  keep: boolean;
};

/**
 * The first payment to an address: the edge of funding clusters. Native currency (asset null),
 * or a quote token's transfer (asset: the token; derive/funding.ts).
 */
export type Funding = { wallet: string; funder: string; block: number; txHash: string; value: bigint; asset?: string };

/** A quote-token transfer from an account without code: a candidate funding edge. */
export type QuotePayment = {
  recipient: string;
  sender: string;
  asset: string;
  block: number;
  logIndex: number;
  txHash: string;
  value: bigint;
};

export type NewToken = {
  address: string;
  /** Cleaned and capped (lib/chain-text.ts), never empty. */
  name: string;
  symbol: string;
  decimals: number;
  /** Supply before the first indexed block of the token: 0 when the indexer saw its creation. */
  supplyBase: bigint;
  /** The launchpad's name (origin launchpad) or the factory's (origin factory), as tokens.launchpad. */
  launchpad: string;
  origin: "launchpad" | "factory";
  creator: string | null;
  launchPool: string | null;
  createdBlock: number;
  createdTx: string;
  /** What cleaning and fallbacks did (tokens.anomalies). */
  anomalies: TokenAnomaly[];
};

/**
 * A new token's anomalies: its text's, and decimals_unknown when decimals() gave no answer
 * (DEFAULT_DECIMALS stands in).
 */
export type TokenAnomaly = TextAnomaly | "decimals_unknown";

export type NewPool = {
  address: string;
  factory: string;
  dex: string;
  protocol: ProtocolKind;
  /** V3 only (null on V2). */
  fee: number | null;
  tickSpacing: number | null;
  token0: string;
  token1: string;
  createdBlock: number;
};

export type QuarantineKind = "token" | "pool" | "log";

export type Quarantine = {
  kind: QuarantineKind;
  /** A token's or pool's address; for a log, `<tx hash>:<log index>`. */
  address: string;
  reason: string;
  /** Where indexing of the entity stops: its logs at or after this position are skipped. */
  block: number;
  logIndex: number;
  /** Skips every log of the entity in the range, and a token discovered in it is not written. */
  whole?: boolean;
};
