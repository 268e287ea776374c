import {
  type FilterBound,
  filterBounds,
  matchesTokenFilter,
  passesBound,
  type TokenFilter,
} from "@/lib/domain/token-filter";
import { TokenIndex } from "./token-index";
import { type CycleToken, sameToken } from "./tokens";

export type MatchDiff = { inserts: string[]; deletes: string[] };

type Remembered = {
  tokens: readonly CycleToken[];
  now: Date;
  /** Each condition's match set, by condition key and by digest: positions in `tokens`. */
  sets: ReadonlyMap<string, number[]>;
  byDigest: ReadonlyMap<string, number[]>;
};

/**
 * What the evaluator carries from one cycle to the next: the tokens and every condition's match
 * set. A cycle then re-examines only what can have changed (see CycleMatches), and an alert
 * whose stored match_digest names a remembered set is diffed against it without reading its
 * rows (that is what the digest says they hold).
 */
export class MatchMemory {
  private last: Remembered | undefined;

  /** This cycle's match set of each condition in `conditions` (keyed as the caller likes). */
  match(tokens: readonly CycleToken[], now: Date, conditions: ReadonlyMap<string, TokenFilter>): CycleMatches {
    return new CycleMatches(tokens, now, conditions, this.last);
  }

  remember(cycle: CycleMatches, digests: ReadonlyMap<string, string | null>) {
    const byDigest = new Map<string, number[]>();
    for (const [key, digest] of digests) if (digest) byDigest.set(digest, cycle.sets.get(key)!);
    this.last = { tokens: cycle.tokens, now: cycle.now, sets: cycle.sets, byDigest };
  }
}

/**
 * One cycle's match sets. A condition the last cycle also had is carried over: its set changes
 * only by tokens that are new or changed (evaluated afresh through an index of just them), by
 * tokens that are gone, and by members that a range moving with time (an age) now leaves out.
 * That rests on matchesTokenFilter being its bounds (filterBounds) and the flags, as
 * lib/domain/token-filter.ts declares; a bound that widened (a clock set back) or a condition not seen last cycle is
 * computed over every token instead.
 */
export class CycleMatches {
  readonly sets = new Map<string, number[]>();
  /** Where each of the last cycle's tokens is now (-1: gone). */
  private readonly moved: Int32Array;
  /** diff's marks over this cycle's tokens, told apart by call (a fresh array per call costs more). */
  private readonly marks: Int32Array;
  private stamp = 0;

  constructor(
    readonly tokens: readonly CycleToken[],
    readonly now: Date,
    conditions: ReadonlyMap<string, TokenFilter>,
    private readonly last: Remembered | undefined,
  ) {
    // The loader keeps positions (new tokens come last), so a lookup is seldom needed.
    let at: Map<string, number> | undefined;
    this.moved = Int32Array.from(last?.tokens ?? [], (t, q) => {
      if (tokens[q]?.address === t.address) return q;
      at ??= new Map(tokens.map((u, i) => [u.address, i]));
      return at.get(t.address) ?? -1;
    });
    this.marks = new Int32Array(tokens.length);
    const changed = new Uint8Array(tokens.length).fill(1);
    last?.tokens.forEach((t, q) => {
      const p = this.moved[q];
      if (p >= 0 && sameToken(t, tokens[p])) changed[p] = 0;
    });

    const fresh = new Map<string, TokenFilter>();
    const carried: { key: string; filter: TokenFilter; before: number[]; moving: FilterBound[] }[] = [];
    for (const [key, filter] of conditions) {
      const before = last?.sets.get(key);
      const moving = before && narrowedBounds(filterBounds(filter, last!.now), filterBounds(filter, now));
      if (moving) carried.push({ key, filter, before: before!, moving });
      else fresh.set(key, filter);
    }

    if (fresh.size) {
      const index = new TokenIndex(tokens, now, fresh.values());
      for (const [key, filter] of fresh) this.sets.set(key, index.matching(filter));
    }
    if (carried.length) {
      const dirty = tokens.flatMap((_, p) => (changed[p] ? [p] : []));
      const index = new TokenIndex(
        dirty.map((p) => tokens[p]),
        now,
        carried.map((c) => c.filter),
      );
      for (const { key, filter, before, moving } of carried) {
        const set = index.matching(filter).map((j) => dirty[j]);
        for (const q of before) {
          const p = this.moved[q];
          if (p < 0 || changed[p]) continue;
          const t = tokens[p];
          // Unchanged and matching before: it still matches unless a range that moved leaves it out.
          if (moving.some((b) => !passesBound(t[b.column], b)) && !matchesTokenFilter(t, filter, now)) continue;
          set.push(p);
        }
        this.sets.set(key, set);
      }
    }
  }

  /** The change from the remembered set with digest `from` to `positions`; undefined when not remembered. */
  diff(from: string | null, positions: readonly number[]): MatchDiff | undefined {
    const before = from === null ? [] : this.last?.byDigest.get(from);
    if (!before) return undefined;
    const added = (this.stamp += 2);
    const kept = added + 1;
    for (const p of positions) this.marks[p] = added;
    const deletes: string[] = [];
    for (const q of before) {
      const p = this.moved[q];
      if (p >= 0 && this.marks[p] >= added) this.marks[p] = kept;
      else deletes.push(this.last!.tokens[q].address);
    }
    const inserts = positions.filter((p) => this.marks[p] === added).map((p) => this.tokens[p].address);
    return { inserts, deletes };
  }
}

/**
 * The bounds of `after` that moved, when every move narrows (`before` and `after` being one
 * filter's bounds at two times); undefined when one widened.
 */
function narrowedBounds(before: FilterBound[], after: FilterBound[]): FilterBound[] | undefined {
  if (before.length !== after.length) return undefined;
  const moved: FilterBound[] = [];
  for (const [i, a] of after.entries()) {
    const b = before[i];
    if (a.column !== b.column || a.side !== b.side) return undefined;
    if (!(a.side === "min" ? a.value >= b.value : a.value <= b.value)) return undefined;
    if (a.value !== b.value) moved.push(a);
  }
  return moved;
}
