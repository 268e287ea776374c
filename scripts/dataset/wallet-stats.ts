import { SECTORS, type Sector } from "./names";
import type { Position } from "./position";

const ramp = (x: number, a: number, b: number) => Math.min(1, Math.max(0, (x - a) / (b - a)));

/**
 * Per-wallet totals across all tokens, in typed arrays: tokens are simulated one at a time and
 * forgotten, so whatever a wallet's row and score need is accumulated here.
 */
export class WalletStats {
  readonly firstSeen: Float64Array;
  readonly lastSeen: Float64Array;
  readonly trades: Int32Array;
  private readonly sectorUsd: Float64Array;
  readonly realizedPnl: Float64Array;
  readonly unrealizedPnl: Float64Array;
  readonly portfolioUsd: Float64Array;
  readonly boughtUsd: Float64Array;
  readonly unknownCostUsd: Float64Array;
  readonly closed: Int32Array;
  readonly wins: Int32Array;
  readonly winSum: Float64Array;
  readonly winMax: Float64Array;
  readonly worstLoss: Float64Array;
  readonly entrySum: Float64Array;
  readonly entryCount: Int32Array;

  constructor(readonly size: number) {
    this.firstSeen = new Float64Array(size).fill(Infinity);
    this.lastSeen = new Float64Array(size);
    this.trades = new Int32Array(size);
    this.sectorUsd = new Float64Array(size * SECTORS.length);
    this.realizedPnl = new Float64Array(size);
    this.unrealizedPnl = new Float64Array(size);
    this.portfolioUsd = new Float64Array(size);
    this.boughtUsd = new Float64Array(size);
    this.unknownCostUsd = new Float64Array(size);
    this.closed = new Int32Array(size);
    this.wins = new Int32Array(size);
    this.winSum = new Float64Array(size);
    this.winMax = new Float64Array(size);
    this.worstLoss = new Float64Array(size);
    this.entrySum = new Float64Array(size);
    this.entryCount = new Int32Array(size);
  }

  /** The wallet took part in an event (as its actor or as a transfer's receiver). */
  seen(w: number, ms: number, sector: Sector, usd: number): void {
    if (ms < this.firstSeen[w]) this.firstSeen[w] = ms;
    if (ms > this.lastSeen[w]) this.lastSeen[w] = ms;
    this.sectorUsd[w * SECTORS.length + SECTORS.indexOf(sector)] += usd;
  }

  active(w: number): boolean {
    return this.firstSeen[w] !== Infinity;
  }

  sectorPreference(w: number): Sector {
    let best = 0;
    for (let s = 1; s < SECTORS.length; s++) {
      if (this.sectorUsd[w * SECTORS.length + s] > this.sectorUsd[w * SECTORS.length + best]) best = s;
    }
    return SECTORS[best];
  }

  /**
   * Folds a finished position in. Entry timing: buying within 48 h of launch scores up to 1,
   * but buys in the first 3 blocks are bots' work rather than judgement and score a neutral 0.5.
   */
  addPosition(w: number, p: Position, priceUsd: number, launchBlock: number, launchMs: number): void {
    const value = (Number(p.quantity) / 1e18) * priceUsd;
    this.portfolioUsd[w] += value;
    this.unrealizedPnl[w] += value - p.costBasisUsd;
    this.realizedPnl[w] += p.realizedPnlUsd;
    this.boughtUsd[w] += p.boughtUsd;
    this.unknownCostUsd[w] += p.unknownCostValueUsd;
    if (p.firstBuyBlock !== null && p.firstBuyMs !== null) {
      const hours = (p.firstBuyMs - launchMs) / 3_600_000;
      this.entrySum[w] += p.firstBuyBlock - launchBlock < 3 ? 0.5 : 1 - ramp(hours, 0.05, 48);
      this.entryCount[w]++;
    }
    if (p.sellCount > 0 && p.boughtUsd > 0) {
      this.closed[w]++;
      if (p.realizedPnlUsd > 0) {
        this.wins[w]++;
        this.winSum[w] += p.realizedPnlUsd;
        this.winMax[w] = Math.max(this.winMax[w], p.realizedPnlUsd);
      } else {
        this.worstLoss[w] = Math.max(this.worstLoss[w], -p.realizedPnlUsd / p.boughtUsd);
      }
    }
  }
}
