/**
 * What the simulation planted, for evaluating the scoring engine: every token with its labels and
 * the risk flags it should (and, for hard negatives, should not) raise; every planted behaviour with
 * its wallets, funder and blocks; and the planted class of every simulated wallet. Entries are
 * recorded when their transactions are mined, with those blocks, never from plans.
 */
import type { Address } from "viem";
import type { Classification, RiskFlag, Sector } from "@/lib/domain/vocab";
import type { Protocol } from "../deploy";
import { HARD_NEGATIVES, STORY_FLAGS, type TokenStory } from "../stories";
import type { LogName } from "./market";
import type { Ownership } from "./ownership";

/** Planted classes: the API's, plus roles the API has no class for. */
export type PlantedClass =
  | Classification
  | "sybil"
  | "market_maker"
  | "creator"
  | "funder"
  | "cex_hot_wallet"
  | "airdrop_distributor"
  | "deployer";

/** The classification the API should give each planted class (null: no single right answer;
 * the hard negatives among them must just not be called wash traders, snipers or insiders). */
export const EXPECTED_CLASSIFICATION: Record<PlantedClass, Classification | null> = {
  smart_money: "smart_money",
  sniper: "sniper",
  bot: "bot",
  insider: "insider",
  whale: "whale",
  wash_trader: "wash_trader",
  fresh: "fresh",
  retail: "retail",
  sybil: "sniper",
  creator: "insider",
  market_maker: null,
  funder: null,
  cex_hot_wallet: null,
  airdrop_distributor: null,
  deployer: null,
};

export type PlantedKind =
  | "wash_ring"
  | "sybil_launch"
  | "rug_pull"
  | "slow_rug"
  | "smart_money"
  | "sniper"
  | "insider"
  | "bot"
  | "whale"
  | "fresh"
  | "market_maker"
  | "lp_migration"
  | "airdrop"
  | "cex_hot_wallet"
  | "fee_claims"
  | "lp_burn";

/** What the simulation planted in a token (devchain/stories.ts). */
export type TokenLabel = TokenStory;
const RAISES: Partial<Record<TokenLabel, RiskFlag>> = STORY_FLAGS;
const MUST_NOT_RAISE: Partial<Record<TokenLabel, RiskFlag>> = HARD_NEGATIVES;

export interface TokenTruth {
  address: Address;
  /** Its pool: a Uniswap V2 pair, or a V3 pool. */
  pair: Address;
  protocol: Protocol;
  /** V3 launches: the position the launchpad minted to its locker, and whether the creator may take it out. */
  positionId?: string;
  locker?: Address;
  withdrawable?: boolean;
  name: string;
  symbol: string;
  sector: Sector;
  launchpad: string;
  launchpadAddress: Address;
  creator: Address;
  launchBlock: number;
  launchTimestamp: number;
  totalSupply: string;
  liquiditySupply: string;
  initialLiquidityWeth: string;
  labels: TokenLabel[];
  /** When each label became true: the rug's block, a slow rug's last step (90% out), the second
   * smart-money exit, the first sniper buy, the launch block of a bundle, ... */
  labelledAt: Partial<Record<TokenLabel, { block: number; timestamp: number }>>;
  /** Its true owners at the end of the recorded history (ownership.ts). */
  ownership: Ownership | null;
  /** Flags the token should raise by the end of the recorded history: its labels', and
   * concentrated_ownership when its true ownership is concentrated. */
  flags: RiskFlag[];
  /** Flags a hard-negative label makes tempting but wrong. */
  notFlags: RiskFlag[];
}

/** One planted behaviour. `block`/`timestamp` is when it happened or began, `toBlock`/`toTimestamp`
 * when a multi-block behaviour ended; kind-specific details are listed in devchain/README.md. */
export interface PlantedEntry {
  kind: PlantedKind;
  token?: Address;
  pair?: Address;
  wallets?: Address[];
  funder?: Address;
  block?: number;
  timestamp?: number;
  toBlock?: number;
  toTimestamp?: number;
  [detail: string]: unknown;
}

export interface GroundTruth {
  version: 1;
  seed: number;
  chainId: number;
  generatedAt: string;
  timeline: {
    slotSeconds: number;
    /** The first simulated block (a block every slot from here on). */
    fromBlock: number;
    fromTimestamp: number;
    /** The last block of the backfilled history. */
    backfillToBlock: number;
    backfillToTimestamp: number;
    /** Everything up to this block is recorded here (beyond the backfill when running live). */
    throughBlock: number;
    throughTimestamp: number;
    live: boolean;
  };
  stats: { transactions: number; logs: Record<LogName, number>; events: number };
  tokens: TokenTruth[];
  planted: PlantedEntry[];
  wallets: Record<Address, PlantedClass>;
}

export class GroundTruthRecorder {
  readonly tokens: TokenTruth[] = [];
  readonly planted: PlantedEntry[] = [];
  readonly wallets: Record<Address, PlantedClass> = {};
  private readonly byAddress = new Map<Address, TokenTruth>();

  classify(wallet: Address, planted: PlantedClass): void {
    this.wallets[wallet] = planted;
  }

  addToken(token: Omit<TokenTruth, "labels" | "labelledAt" | "ownership" | "flags" | "notFlags">): TokenTruth {
    const truth: TokenTruth = { ...token, labels: [], labelledAt: {}, ownership: null, flags: [], notFlags: [] };
    this.tokens.push(truth);
    this.byAddress.set(truth.address, truth);
    return truth;
  }

  label(token: Address, label: TokenLabel, at: { block: number; timestamp: number }): void {
    const truth = this.byAddress.get(token);
    if (!truth) throw new Error(`ground truth: unknown token ${token}`);
    if (truth.labels.includes(label)) return;
    truth.labels.push(label);
    truth.labelledAt[label] = at;
    setFlags(truth);
  }

  /** Records the token's true ownership as of now (it replaces any earlier reading). */
  own(token: Address, ownership: Ownership): void {
    const truth = this.byAddress.get(token);
    if (!truth) throw new Error(`ground truth: unknown token ${token}`);
    truth.ownership = ownership;
    setFlags(truth);
  }

  /** Records an entry; the caller may keep extending it (block ranges, counts) as it unfolds. */
  plant(entry: PlantedEntry): PlantedEntry {
    this.planted.push(entry);
    return entry;
  }

  snapshot(meta: Omit<GroundTruth, "version" | "tokens" | "planted" | "wallets">): GroundTruth {
    return { version: 1, ...meta, tokens: this.tokens, planted: this.planted, wallets: this.wallets };
  }
}

function setFlags(truth: TokenTruth): void {
  const flags = new Set(truth.labels.flatMap((l) => RAISES[l] ?? []));
  if (truth.ownership?.concentrated) flags.add("concentrated_ownership");
  truth.flags = [...flags];
  truth.notFlags = [...new Set(truth.labels.flatMap((l) => MUST_NOT_RAISE[l] ?? []))].filter((f) => !flags.has(f));
}
