/** The simulation's shared context: the clock, the job schedule, the market and the records. */
import type { ChainWriter } from "./chain-writer";
import type { GroundTruthRecorder, PlantedEntry, TokenLabel } from "./ground-truth";
import type { Market } from "./market";
import { Rng } from "./random";
import { type Job, Scheduler } from "./scheduler";
import { type SimToken, TokenBook } from "./tokens";
import { Wallets } from "./wallets";

/** One block per slot, like a 2-second L2. */
export const SLOT_SECONDS = 2;
export const MINUTE = 60 / SLOT_SECONDS;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface SimSizes {
  days: number;
  /** Tokens launched during the backfilled history. */
  tokens: number;
  /** Background traders: retail, fresh, snipers, bots, whales, smart money, market makers. */
  wallets: number;
  /** Target of swap + transfer + liquidity events for the backfill (raises the crowd's activity). */
  events?: number;
  /** Share of launches on Uniswap V3 (through the V3 launchpad). */
  v3Share: number;
}

export interface Moment {
  block: number;
  timestamp: number;
}

export class Sim {
  readonly rng: Rng;
  readonly scheduler = new Scheduler();
  readonly tokens = new TokenBook();
  readonly wallets: Wallets;
  /** The slot whose block is being built. */
  slot = 0;

  constructor(
    readonly seed: number,
    readonly sizes: SimSizes,
    /** Slots of backfilled history; live slots follow. */
    readonly backfillSlots: number,
    readonly market: Market,
    readonly writer: ChainWriter,
    readonly truth: GroundTruthRecorder,
  ) {
    this.rng = new Rng(`devchain/${seed}`);
    this.wallets = new Wallets(seed, market, truth);
  }

  get now(): Moment {
    return { block: this.writer.blockOf(this.slot), timestamp: this.writer.timestampOf(this.slot) };
  }

  /** Runs `job` in the block of `slot` (the current one included, after the jobs already queued). */
  at(slot: number, job: Job): void {
    if (slot < this.slot) throw new Error(`sim: slot ${slot} is in the past (now ${this.slot})`);
    this.scheduler.at(Math.round(slot), job);
  }

  /** Runs `job` `slots` slots from now, at least one block later. */
  after(slots: number, job: Job): void {
    this.at(this.slot + Math.max(1, Math.round(slots)), job);
  }

  /** The slot that is `fraction` of the way through the backfill. */
  backfillAt(fraction: number): number {
    return Math.floor(this.backfillSlots * fraction);
  }

  /** Gives the token a planted label as of the current block. */
  label(token: SimToken, label: TokenLabel): void {
    this.truth.label(token.address, label, this.now);
  }

  /** Extends a planted entry's block range to the current block. */
  extend(entry: PlantedEntry): void {
    entry.toBlock = this.now.block;
    entry.toTimestamp = this.now.timestamp;
  }

  /** Runs a job that trades `token` at `slot`, or once the token can be traded again if its
   * liquidity is being moved then. */
  tradeAt(token: SimToken, slot: number, job: Job): void {
    this.at(slot, () => {
      if (this.tokens.tradable(token, this.slot)) job();
      else this.tradeAt(token, token.frozenUntil, job);
    });
  }
}

/** Ether as wei, from a float with micro-ether precision (amounts drawn from distributions). */
export function ether(x: number): bigint {
  return BigInt(Math.max(0, Math.round(x * 1e6))) * 10n ** 12n;
}

/** `fraction` (0..1) of an amount. */
export function part(amount: bigint, fraction: number): bigint {
  return (amount * BigInt(Math.round(Math.min(Math.max(fraction, 0), 1) * 1e6))) / 1_000_000n;
}

export function weiToEther(amount: bigint): number {
  return Number(amount / 10n ** 12n) / 1e6;
}
