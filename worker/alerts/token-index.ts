import {
  type FilterableToken,
  type FilterBound,
  filterBounds,
  matchesTokenFilter,
  type TokenFilter,
} from "@/lib/domain/token-filter";

/** Bitsets kept per side of a column: each holds at most about 1/LANDMARKS of the tokens more than its bounds. */
const LANDMARKS = 64;

/** A column and side of the filter's bounds (passesBound: NaN passes either side). */
type Side = Pick<FilterBound, "column" | "side">;

/**
 * A bound (side and value). Token i passes it when `passed[i] > k`; the tokens passing it are
 * `members` from `from` on; `bits` holds them and possibly a few more.
 */
type Bound = { passed: Int32Array; k: number; members: Int32Array; from: number; bits: Uint32Array };

const boundKey = (s: Side, value: number) => `${s.column}:${s.side}:${value}`;

/**
 * One cycle's tokens, indexed to answer many filters at once (alert evaluation).
 *
 * Every bound reads as "key >= threshold" over a key column (the value, or its negation for a
 * max), so once a side's thresholds are sorted, the ones a token passes are a prefix: one
 * binary search per token and side tells how many (`passed`), and ordering the tokens by it
 * (`members`) makes the tokens passing any threshold one slice.
 *
 * A filter whose most selective bound passes few tokens walks that slice; otherwise it ANDs the
 * bitsets of its bounds (sequential, where the walk would jump about memory), each a superset
 * kept at one of a few landmark thresholds per side, so memory does not grow with the number
 * of distinct values. Either way a candidate must pass every bound, and `matchesTokenFilter`
 * (flags included) has the last word: the answer is exactly its answer over every token.
 */
export class TokenIndex<T extends FilterableToken> {
  private readonly bounds = new Map<string, Bound>();
  private readonly words: number;
  private readonly scratch: Uint32Array;

  constructor(
    readonly tokens: readonly T[],
    readonly now: Date,
    /** The filters that will be asked, so that each side's bounds are built in one pass. */
    filters: Iterable<TokenFilter> = [],
  ) {
    this.words = Math.ceil(tokens.length / 32);
    this.scratch = new Uint32Array(this.words);
    const wanted = new Map<string, { side: Side; values: Set<number> }>();
    for (const f of filters) {
      for (const { column, side, value } of filterBounds(f, now)) {
        const key = `${column}:${side}`;
        if (!wanted.has(key)) wanted.set(key, { side: { column, side }, values: new Set() });
        wanted.get(key)!.values.add(value);
      }
    }
    for (const { side, values } of wanted.values()) this.build(side, [...values]);
  }

  /** Positions in `tokens` of the tokens matching `filter`, in no particular order. */
  matching(filter: TokenFilter): number[] {
    const out: number[] = [];
    const bounds = filterBounds(filter, this.now)
      .map((b) => this.bound(b, b.value))
      .sort((a, b) => b.from - a.from);
    if (bounds.length === 0) {
      for (let i = 0; i < this.tokens.length; i++)
        if (matchesTokenFilter(this.tokens[i], filter, this.now)) out.push(i);
      return out;
    }
    const passed = bounds.map((b) => b.passed);
    const k = Int32Array.from(bounds, (b) => b.k);
    const accept = (i: number, first: number) => {
      for (let b = first; b < k.length; b++) if (passed[b][i] <= k[b]) return;
      if (matchesTokenFilter(this.tokens[i], filter, this.now)) out.push(i);
    };
    const { members, from } = bounds[0];
    if (members.length - from <= this.words) {
      for (let j = from; j < members.length; j++) accept(members[j], 1);
      return out;
    }
    const candidates = this.scratch;
    candidates.set(bounds[0].bits);
    for (let b = 1; b < bounds.length; b++) {
      const bits = bounds[b].bits;
      for (let w = 0; w < this.words; w++) candidates[w] &= bits[w];
    }
    for (let w = 0; w < this.words; w++) {
      for (let word = candidates[w]; word !== 0; word &= word - 1) accept(w * 32 + 31 - Math.clz32(word & -word), 0);
    }
    return out;
  }

  private bound(side: Side, value: number): Bound {
    if (!this.bounds.has(boundKey(side, value))) this.build(side, [value]);
    return this.bounds.get(boundKey(side, value))!;
  }

  /** Places every token against the sorted `values` of one side (see the class comment). */
  private build(side: Side, values: number[]) {
    const n = this.tokens.length;
    // The bound as key >= threshold: a max is a min over the negated column.
    const sign = side.side === "min" ? 1 : -1;
    const key = new Float64Array(n);
    for (let i = 0; i < n; i++) key[i] = sign * this.tokens[i][side.column];
    values.sort((a, b) => sign * (a - b));
    const at = Float64Array.from(values, (v) => sign * v);

    const passed = new Int32Array(n);
    // starts[p + 1] counts the tokens passing p thresholds, then becomes where they start in `members`.
    const starts = new Int32Array(values.length + 2);
    for (let i = 0; i < n; i++) {
      const x = key[i];
      let lo = 0;
      let hi = at.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (!(x < at[mid])) lo = mid + 1;
        else hi = mid;
      }
      passed[i] = lo;
      starts[lo + 1]++;
    }
    for (let p = 1; p < starts.length; p++) starts[p] += starts[p - 1];
    const members = new Int32Array(n);
    const fill = starts.slice();
    for (let i = 0; i < n; i++) members[fill[passed[i]]++] = i;

    // Threshold k is passed by the tokens passing more than k thresholds: from the highest
    // threshold down, add each group, and keep a bitset whenever enough tokens joined since the
    // last one; the thresholds in between share it (it holds their tokens and a few more).
    const acc = new Uint32Array(this.words);
    const step = Math.ceil(n / LANDMARKS);
    let pending: number[] = [];
    let kept = n;
    for (let k = values.length - 1; k >= 0; k--) {
      for (let j = starts[k + 1]; j < starts[k + 2]; j++) acc[members[j] >>> 5] |= 1 << (members[j] & 31);
      pending.push(k);
      if (k > 0 && starts[k + 1] > kept - step) continue;
      const bits = acc.slice();
      for (const p of pending)
        this.bounds.set(boundKey(side, values[p]), { passed, k: p, members, from: starts[p + 1], bits });
      pending = [];
      kept = starts[k + 1];
    }
  }
}
