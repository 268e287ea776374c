import { rngFor, STREAM } from "./rng";

export const CHAIN_ID = 31337;
/** As the dev chain's profile: events of the last 32 blocks are not yet `confirmed`. */
export const FINALITY_DEPTH = 32;
export const BLOCK_SECONDS = 2;
/** events.id = block * ID_BLOCK_FACTOR + log index (db/schema/events.ts). */
export const ID_BLOCK_FACTOR = 100_000;
export const HOUR_MS = 3_600_000;

/**
 * The chain's clock and log space: blocks every 2 s ending at `now`, and per block the next free
 * log index. Tokens are simulated one after another; each claims its log indexes here, which
 * keeps (block, log index) unique across the whole dataset without holding it in memory.
 */
export class Chain {
  readonly firstBlock = 1;
  readonly lastBlock: number;
  readonly nowMs: number;
  readonly startMs: number;
  private readonly nextLog: Int32Array;
  private readonly ethUsdHourly: Float64Array;

  constructor(seed: number, now: Date, spanDays: number) {
    this.nowMs = Math.floor(now.getTime() / 1000) * 1000;
    this.lastBlock = Math.floor((spanDays * 86_400) / BLOCK_SECONDS) + 1;
    this.startMs = this.timeOf(this.firstBlock);
    this.nextLog = new Int32Array(this.lastBlock + 1);
    // WETH/USD as an hourly random walk around 3,000 USD.
    const rng = rngFor(seed, STREAM.chain);
    const hours = Math.ceil((this.nowMs - this.startMs) / HOUR_MS) + 2;
    this.ethUsdHourly = new Float64Array(hours);
    let p = rng.lognormal(3000, 0.15);
    for (let h = 0; h < hours; h++) {
      this.ethUsdHourly[h] = p;
      p *= Math.exp(rng.normal() * 0.008);
    }
  }

  timeOf(block: number): number {
    return this.nowMs - (this.lastBlock - block) * BLOCK_SECONDS * 1000;
  }

  /** The last block mined at or before `ms`. */
  blockAt(ms: number): number {
    const b = this.lastBlock - Math.ceil((this.nowMs - ms) / (BLOCK_SECONDS * 1000));
    return Math.min(this.lastBlock, Math.max(this.firstBlock, b));
  }

  ethUsd(ms: number): number {
    const x = (ms - this.startMs) / HOUR_MS;
    const h = Math.min(Math.max(Math.floor(x), 0), this.ethUsdHourly.length - 2);
    const f = Math.min(Math.max(x - h, 0), 1);
    return this.ethUsdHourly[h] * (1 - f) + this.ethUsdHourly[h + 1] * f;
  }

  /** Reserves `count` consecutive log indexes in `block` for one transaction; returns the first. */
  claimLogs(block: number, count: number): number {
    const first = this.nextLog[block];
    if (first + count >= ID_BLOCK_FACTOR) throw new Error(`block ${block} is out of log indexes`);
    this.nextLog[block] = first + count;
    return first;
  }

  /** Blocks that hold at least one log, plus the head: the blocks an indexer would store. */
  *referencedBlocks(): Generator<number> {
    for (let b = this.firstBlock; b < this.lastBlock; b++) if (this.nextLog[b] > 0) yield b;
    yield this.lastBlock;
  }
}
