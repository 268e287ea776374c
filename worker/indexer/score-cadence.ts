/**
 * A token whose scoring read at least this many rows of input (its swaps in the lookback, its
 * holders) is busy: scoring it costs the worker's one thread a few hundred milliseconds (some
 * 600 ms at 56,000 swaps), which a block arriving meanwhile waits for.
 */
export const BUSY_SCORING_ROWS = 2_000;
/** A busy token touched by live blocks is scored at most this often. */
const BUSY_INTERVAL_MS = 10_000;
/** A token no block touched is scored again by a periodic full refresh once its score is this old. */
const MAX_AGE_MS = 300_000;

/**
 * When the worker scores a token again. A score moves with its token's own blocks, and only slowly
 * with time (swaps leaving the lookback, the token's age), so:
 * - a refresh that may not wait (after a backfill or a reorg) scores every token;
 * - a live refresh scores the tokens its blocks touched, except a busy one scored within
 *   BUSY_INTERVAL_MS: that one is owed, and scored once its interval has passed;
 * - a periodic full refresh scores the owed tokens that are due and those scored MAX_AGE_MS ago
 *   or more, and every wallet when the last full refresh that did is MAX_AGE_MS old (a wallet
 *   a block touched is scored by the live refresh that follows it).
 * Metrics, rankings and wallets' values follow every refresh whatever this decides. A full
 * refresh interval of 0 (tests, fixture loads) scores on every refresh; any other leaves both
 * intervals as they are: capped by it, the 30-s default would score every token and wallet again
 * on every periodic full refresh.
 */
export class ScoreCadence {
  private readonly scored = new Map<string, { at: number; busy: boolean }>();
  private readonly owed = new Map<string, number>();
  /** When the last full refresh that scored every wallet started. */
  private walletsScoredAt = Number.NEGATIVE_INFINITY;
  private readonly busyIntervalMs: number;
  private readonly maxAgeMs: number;

  constructor(
    fullRefreshIntervalMs: number,
    private readonly busyRows = BUSY_SCORING_ROWS,
  ) {
    const everyRefresh = fullRefreshIntervalMs === 0;
    this.busyIntervalMs = everyRefresh ? 0 : BUSY_INTERVAL_MS;
    this.maxAgeMs = everyRefresh ? 0 : MAX_AGE_MS;
  }

  private scoredWithin(t: string, ms: number, now: number) {
    const s = this.scored.get(t);
    return s !== undefined && now - s.at < ms;
  }

  /** Of a live refresh's tokens, those left unscored: busy ones scored within their interval. */
  liveUnscored(tokens: string[], now: number): string[] {
    return tokens.filter((t) => this.scored.get(t)?.busy && this.scoredWithin(t, this.busyIntervalMs, now));
  }

  /** Of a periodic full refresh's tokens, those left unscored: scored within their age, or owed and within their interval. */
  periodicUnscored(tokens: string[], now: number): string[] {
    return tokens.filter((t) => this.scoredWithin(t, this.owed.has(t) ? this.busyIntervalMs : this.maxAgeMs, now));
  }

  /** Whether a periodic full refresh starting at `now` leaves the wallets' scores as they are. */
  periodicWalletsUnscored(now: number): boolean {
    return now - this.walletsScoredAt < this.maxAgeMs;
  }

  /** A full refresh that scored every wallet, started at `at`, completed. */
  walletsScored(at: number) {
    this.walletsScoredAt = at;
  }

  /** The owed tokens whose interval has passed (of those `indexed` still), and since when the first has waited. */
  due(now: number, indexed: (t: string) => boolean): { tokens: string[]; since: number } {
    for (const t of this.owed.keys()) if (!indexed(t)) this.owed.delete(t);
    const tokens = [...this.owed.keys()].filter((t) => !this.scoredWithin(t, this.busyIntervalMs, now));
    return { tokens, since: Math.min(now, ...tokens.map((t) => this.owed.get(t)!)) };
  }

  /**
   * A refresh started at `at` committed: it scored the tokens of `scoringRows` (with the rows each read)
   * and left `unscored` touched tokens owed.
   */
  committed(at: number, scoringRows: Map<string, number>, owed: string[] = []) {
    for (const [t, rows] of scoringRows) {
      this.owed.delete(t);
      this.scored.set(t, { at, busy: rows >= this.busyRows });
    }
    for (const t of owed) if (!this.owed.has(t)) this.owed.set(t, at);
  }
}
