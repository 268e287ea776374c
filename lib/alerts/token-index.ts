import { matchesTokenFilter, NUMERIC_FILTERS, type FilterableToken, type TokenFilter } from "@/lib/tokens/filter";

type NumericField = keyof typeof NUMERIC_FILTERS;
const FIELDS = Object.keys(NUMERIC_FILTERS) as NumericField[];
const HOUR_MS = 3_600_000;

/**
 * One cycle's tokens, indexed to answer many filters at once (alert evaluation).
 *
 * Each distinct numeric bound (field and value) becomes a bitset of the tokens that may satisfy
 * it, built once and shared by every filter using it; a filter ANDs the bitsets of its bounds
 * and `matchesTokenFilter` decides on the survivors. The bitsets only ever hold too many tokens
 * (NaN passes, age has a millisecond of slack), never too few, so the answer is exactly
 * `matchesTokenFilter`'s over every token.
 */
export class TokenIndex<T extends FilterableToken> {
  private readonly words: number;
  private readonly columns = new Map<string, Float64Array>();
  private readonly bitsets = new Map<string, Uint32Array>();
  private readonly scratch: Uint32Array;

  constructor(
    readonly tokens: readonly T[],
    readonly now: Date,
  ) {
    this.words = Math.ceil(tokens.length / 32);
    this.scratch = new Uint32Array(this.words);
  }

  /** Positions in `tokens` of the tokens matching `filter`, ascending. */
  matching(filter: TokenFilter): number[] {
    const out: number[] = [];
    const check = (i: number) => {
      if (matchesTokenFilter(this.tokens[i], filter, this.now)) out.push(i);
    };
    const bounds = FIELDS.filter((name) => filter[name] !== undefined).map((name) => this.bitset(name, filter[name]!));
    if (bounds.length === 0) {
      for (let i = 0; i < this.tokens.length; i++) check(i);
      return out;
    }
    let candidates = bounds[0];
    if (bounds.length > 1) {
      candidates = this.scratch;
      candidates.set(bounds[0]);
      for (const b of bounds.slice(1)) for (let w = 0; w < this.words; w++) candidates[w] &= b[w];
    }
    for (let w = 0; w < this.words; w++) {
      for (let word = candidates[w]; word !== 0; word &= word - 1) {
        check(w * 32 + 31 - Math.clz32(word & -word));
      }
    }
    return out;
  }

  /** Tokens that may pass `name` at `value`: a superset of those that do. */
  private bitset(name: NumericField, value: number): Uint32Array {
    const key = `${name}:${value}`;
    let bits = this.bitsets.get(key);
    if (bits) return bits;
    const f = NUMERIC_FILTERS[name];
    bits = new Uint32Array(this.words);
    const set = (i: number) => (bits![i >>> 5] |= 1 << (i & 31));
    if (f.column === "ageHours") {
      // age <= value  <=>  created_at >= now - value hours; a millisecond of slack absorbs rounding.
      const column = this.column("createdAt");
      const since = this.now.getTime() - value * HOUR_MS - 1;
      for (let i = 0; i < column.length; i++) if (!(column[i] < since)) set(i);
    } else {
      const column = this.column(f.column);
      if (f.bound === "min") {
        for (let i = 0; i < column.length; i++) if (!(column[i] < value)) set(i);
      } else {
        for (let i = 0; i < column.length; i++) if (!(column[i] > value)) set(i);
      }
    }
    this.bitsets.set(key, bits);
    return bits;
  }

  private column(name: Exclude<(typeof NUMERIC_FILTERS)[NumericField]["column"], "ageHours"> | "createdAt"): Float64Array {
    let column = this.columns.get(name);
    if (!column) {
      column = Float64Array.from(this.tokens, (t) => (name === "createdAt" ? t.createdAt.getTime() : t[name]));
      this.columns.set(name, column);
    }
    return column;
  }
}
