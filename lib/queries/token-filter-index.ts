import { BOUND_TESTS, type FilterColumn, filterBounds, flagMask, type TokenFilter } from "@/lib/domain/token-filter";
import { RISK_FLAGS } from "@/lib/domain/vocab";
import { firstReached } from "./sorted-positions";
import type { Snapshot } from "./token-list-index";

/**
 * A token list filter's exact matches without testing every token. Each filter column of a
 * snapshot is cut into value buckets: up to CUTS cut values (quantiles of a sample), each cut
 * alone in a bucket, the open spans between cuts, and NaN (no value, which passes every bound).
 * A bound is monotone in the value, so the buckets that fail it whole are one run, read as two
 * prefix bitmaps. In the one bucket that straddles the bound, put in value order the first time
 * it does, the failing tokens are a prefix or a suffix, found by a binary search with BOUND_TESTS
 * (as every evaluation of a filter is). A filter's matches are then a few passes over n / 32
 * words and at most about n / CUTS cleared bits per bound, instead of n tests per bound.
 */
const CUTS = 64;
/** Values sampled to choose the cuts (evenly over positions, which are in address order). */
const SAMPLE = 4096;

type ColumnIndex = {
  /** Positions by bucket: bucket b holds members[start[b]] up to members[start[b + 1]]. */
  members: Int32Array;
  /** Their values, in the same order. */
  memberValues: Float64Array;
  start: Int32Array;
  /** 1 for a bucket whose members are in ascending value (sorted when it first straddles a bound). */
  ordered: Uint8Array;
  /** Each bucket's lowest and highest value (unread for an empty bucket). */
  low: Float64Array;
  high: Float64Array;
  /** Row b (b from 0 to the number of buckets): a bitmap of the positions in buckets before b. */
  prefix: Int32Array;
};

const wordsOf = (n: number) => (n + 31) >>> 5;

/** The cut values of a column: distinct quantiles of a sample of its values, ascending. */
function cutsOf(values: Float64Array): Float64Array {
  const stride = Math.max(1, Math.floor(values.length / SAMPLE));
  const sample: number[] = [];
  for (let i = 0; i < values.length; i += stride) if (!Number.isNaN(values[i])) sample.push(values[i]);
  const sorted = Float64Array.from(sample).sort();
  const cuts: number[] = [];
  for (let k = 0; k < CUTS && sorted.length; k++) {
    const c = sorted[Math.floor((k * sorted.length) / CUTS)];
    if (!cuts.length || c !== cuts[cuts.length - 1]) cuts.push(c);
  }
  return Float64Array.from(cuts);
}

/** The bucket of value x: 2j - 1 for x equal to cut j - 1, 2j between cuts j - 1 and j, the last for NaN. */
function bucketOf(cuts: Float64Array, x: number): number {
  if (Number.isNaN(x)) return 2 * cuts.length + 1;
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cuts[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && x === cuts[lo - 1] ? 2 * lo - 1 : 2 * lo;
}

function buildIndex(values: Float64Array): ColumnIndex {
  const n = values.length;
  const cuts = cutsOf(values);
  const buckets = 2 * cuts.length + 2;
  const bucket = new Uint16Array(n);
  const start = new Int32Array(buckets + 1);
  const low = new Float64Array(buckets).fill(Number.POSITIVE_INFINITY);
  const high = new Float64Array(buckets).fill(Number.NEGATIVE_INFINITY);
  for (let p = 0; p < n; p++) {
    const b = bucketOf(cuts, values[p]);
    bucket[p] = b;
    start[b + 1]++;
    if (values[p] < low[b]) low[b] = values[p];
    if (values[p] > high[b]) high[b] = values[p];
  }
  low[buckets - 1] = high[buckets - 1] = Number.NaN;
  for (let b = 0; b < buckets; b++) start[b + 1] += start[b];
  const members = new Int32Array(n);
  const memberValues = new Float64Array(n);
  const fill = start.slice(0, buckets);
  for (let p = 0; p < n; p++) {
    const k = fill[bucket[p]]++;
    members[k] = p;
    memberValues[k] = values[p];
  }
  const words = wordsOf(n);
  const prefix = new Int32Array((buckets + 1) * words);
  for (let b = 0; b < buckets; b++) {
    prefix.copyWithin((b + 1) * words, b * words, (b + 1) * words);
    const row = (b + 1) * words;
    for (let k = start[b]; k < start[b + 1]; k++) prefix[row + (members[k] >>> 5)] |= 1 << (members[k] & 31);
  }
  return { members, memberValues, start, low, high, prefix, ordered: new Uint8Array(buckets) };
}

/** Bucket b's members and values in ascending value, once: sorting every bucket up front cost as much as a query's first use. */
function orderBucket(index: ColumnIndex, b: number): void {
  if (index.ordered[b]) return;
  const { members, memberValues, start } = index;
  const at = start[b];
  const keys = Int32Array.from({ length: start[b + 1] - at }, (_, i) => at + i).sort(
    (x, y) => memberValues[x] - memberValues[y],
  );
  const sortedMembers = Int32Array.from(keys, (k) => members[k]);
  const sortedValues = Float64Array.from(keys, (k) => memberValues[k]);
  members.set(sortedMembers, at);
  memberValues.set(sortedValues, at);
  index.ordered[b] = 1;
}

/**
 * What a snapshot derives for its filters on first use: each column's index, each flag's bitmap,
 * and the bitmap of matches requests share (allocated per request it made the server's garbage
 * collector run far more often, whose every run marks the whole snapshot).
 */
const derived = new WeakMap<
  Snapshot,
  { columns: Map<FilterColumn, ColumnIndex>; flags?: Int32Array; matches: Int32Array }
>();

function derivedOf(s: Snapshot) {
  let d = derived.get(s);
  if (!d) {
    d = { columns: new Map(), matches: new Int32Array(wordsOf(s.addresses.length)) };
    derived.set(s, d);
  }
  return d;
}

function columnIndex(s: Snapshot, column: FilterColumn): ColumnIndex {
  const { columns } = derivedOf(s);
  let index = columns.get(column);
  if (!index) {
    index = buildIndex(s.columns[column]!);
    columns.set(column, index);
  }
  return index;
}

/** Row f: a bitmap of the positions that raised RISK_FLAGS[f]. */
function flagBitmaps(s: Snapshot): Int32Array {
  const d = derivedOf(s);
  if (!d.flags) {
    const words = wordsOf(s.flags.length);
    d.flags = new Int32Array(RISK_FLAGS.length * words);
    for (let p = 0; p < s.flags.length; p++) {
      for (let f = 0; f < RISK_FLAGS.length; f++)
        if (s.flags[p] & (1 << f)) d.flags[f * words + (p >>> 5)] |= 1 << (p & 31);
    }
  }
  return d.flags;
}

function popcount(x: number): number {
  const a = x - ((x >>> 1) & 0x55555555);
  const b = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
  return Math.imul((b + (b >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Whether position p is set in a bitmap. */
export const isSet = (bits: Int32Array, p: number) => ((bits[p >>> 5] >>> (p & 31)) & 1) === 1;

/**
 * The positions of snapshot `s` that pass `filter` (its bounds as of `now` and its excluded
 * flags) as a bitmap, and how many they are; null when the filter is empty. The bitmap is the
 * snapshot's, shared by its requests: read it before the next await.
 */
export function filterMatches(s: Snapshot, filter: TokenFilter, now: Date): { bits: Int32Array; total: number } | null {
  const excluded = flagMask(filter.exclude_flags ?? []);
  const bounds = filterBounds(filter, now);
  if (!bounds.length && !excluded) return null;
  const n = s.addresses.length;
  const words = wordsOf(n);
  const bits = derivedOf(s).matches.fill(-1);
  if (n & 31) bits[words - 1] = (1 << (n & 31)) - 1;
  for (const bound of bounds) {
    const test = BOUND_TESTS[bound.side];
    const index = columnIndex(s, bound.column);
    const { members, memberValues, start, low, high, prefix } = index;
    // The buckets that fail whole, [from, to); a bucket that passes in part is searched for its failing side.
    let from = -1;
    let to = -1;
    for (let b = 0; b < start.length - 1; b++) {
      if (start[b] === start[b + 1]) continue;
      const passLow = test(low[b], bound.value);
      if (passLow !== test(high[b], bound.value)) {
        orderBucket(index, b);
        // The first member whose test differs from the lowest's: the failing side ends or begins there.
        const edge = firstReached(start[b], start[b + 1], (k) => test(memberValues[k], bound.value) !== passLow);
        const [first, end] = passLow ? [edge, start[b + 1]] : [start[b], edge];
        for (let k = first; k < end; k++) bits[members[k] >>> 5] &= ~(1 << (members[k] & 31));
      } else if (!passLow) {
        if (from < 0) from = b;
        to = b + 1;
      }
    }
    if (from >= 0) {
      const a = from * words;
      const z = to * words;
      for (let w = 0; w < words; w++) bits[w] &= ~(prefix[z + w] & ~prefix[a + w]);
    }
  }
  if (excluded) {
    const flags = flagBitmaps(s);
    for (let f = 0; f < RISK_FLAGS.length; f++) {
      if (!(excluded & (1 << f))) continue;
      for (let w = 0, row = f * words; w < words; w++) bits[w] &= ~flags[row + w];
    }
  }
  let total = 0;
  for (let w = 0; w < words; w++) total += popcount(bits[w]);
  return { bits, total };
}
