import type { CycleToken } from "./load";

export type MatchDiff = { inserts: string[]; deletes: string[] };

/**
 * The previous cycle's match sets, by digest. An alert whose stored match_digest is remembered
 * holds exactly that set's rows (that is what the digest says), so its change is diffed here,
 * in token positions, without reading the rows; otherwise (a set not computed last cycle, a
 * worker that just took over) the caller reads them.
 */
export class MatchMemory {
  private tokens: readonly CycleToken[] = [];
  private sets = new Map<string, number[]>();
  /** For the cycle being diffed: where each remembered token is now (-1: gone). */
  private moved: { to: readonly CycleToken[]; at: Int32Array; mark: Int32Array; stamp: number } | undefined;

  /** The change from the remembered set `from` to `positions` of `tokens`; undefined when not remembered. */
  diff(from: string | null, tokens: readonly CycleToken[], positions: readonly number[]): MatchDiff | undefined {
    const before = from === null ? [] : this.sets.get(from);
    if (!before) return undefined;
    if (this.moved?.to !== tokens) {
      const now = new Map(tokens.map((t, i) => [t.address, i]));
      const at = Int32Array.from(this.tokens, (t) => now.get(t.address) ?? -1);
      this.moved = { to: tokens, at, mark: new Int32Array(tokens.length), stamp: 0 };
    }
    const m = this.moved;
    const now = ++m.stamp;
    const kept = -now;
    for (const p of positions) m.mark[p] = now;
    const deletes: string[] = [];
    for (const q of before) {
      const p = m.at[q];
      if (p >= 0 && m.mark[p] === now) m.mark[p] = kept;
      else deletes.push(this.tokens[q].address);
    }
    const inserts = positions.filter((p) => m.mark[p] === now).map((p) => tokens[p].address);
    return { inserts, deletes };
  }

  /** Replaces what is remembered with this cycle's sets. */
  remember(tokens: readonly CycleToken[], sets: Iterable<{ digest: string | null; positions: number[] }>) {
    this.tokens = tokens;
    this.sets = new Map([...sets].flatMap((s) => (s.digest ? [[s.digest, s.positions] as const] : [])));
    this.moved = undefined;
  }
}
