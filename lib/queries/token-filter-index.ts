import { BOUND_TESTS, type FilterColumn, filterBounds, flagMask, type TokenFilter } from "@/lib/domain/token-filter";
import { RISK_FLAGS } from "@/lib/domain/vocab";
import { breathe } from "./breathe";
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
/**
 * A snapshot's index is carried to the next one built from it (the tokens written since moved
 * between buckets, new ones added) until this share of the tokens moved since its cuts were
 * chosen: past it, the cuts may no longer split the values evenly (new tokens all land above the
 * last cut of created_at), and the index is built anew.
 */
const DRIFT = 1 / 16;
/** Values sampled to choose the cuts (evenly over positions). */
const SAMPLE = 4096;

type ColumnIndex = {
  cuts: Float64Array;
  /** Each position's bucket. */
  bucket: Uint16Array;
  /** How many positions moved (or came) since the cuts were chosen. */
  drift: number;
  /** Positions by bucket: bucket b holds members[start[b]] up to members[start[b + 1]]. */
  members: Int32Array;
  /** The column's values by position (the snapshot's). */
  values: Float64Array;
  start: Int32Array;
  /** 1 for a bucket whose members are in ascending value (sorted when it first straddles a bound). */
  ordered: Uint8Array;
  /**
   * Bounds of each bucket's values (unread for an empty bucket): its lowest and highest when built,
   * widened by the values a carry brings in, not narrowed by those it takes out.
   */
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

/** A column's index built anew, a breath between its passes over the positions. */
async function buildIndex(values: Float64Array): Promise<ColumnIndex> {
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
  await breathe();
  const members = new Int32Array(n);
  const fill = start.slice(0, buckets);
  for (let p = 0; p < n; p++) members[fill[bucket[p]]++] = p;
  await breathe();
  const words = wordsOf(n);
  const prefix = new Int32Array((buckets + 1) * words);
  for (let b = 0; b < buckets; b++) {
    prefix.copyWithin((b + 1) * words, b * words, (b + 1) * words);
    const row = (b + 1) * words;
    for (let k = start[b]; k < start[b + 1]; k++) prefix[row + (members[k] >>> 5)] |= 1 << (members[k] & 31);
  }
  return { cuts, bucket, drift: 0, members, values, start, low, high, prefix, ordered: new Uint8Array(buckets) };
}

/** Bitmaps (rows of `oldWords` words) copied into rows of `words` words, as many or more: positions added clear. */
function widened(old: Int32Array, oldWords: number, words: number): Int32Array {
  if (oldWords === words) return old.slice();
  const rows = old.length / oldWords;
  const out = new Int32Array(rows * words);
  for (let r = 0; r < rows; r++) out.set(old.subarray(r * oldWords, (r + 1) * oldWords), r * words);
  return out;
}

/** Sets (or clears) position p in rows [from, to) of bitmaps of `words` words. */
function markRows(bits: Int32Array, words: number, p: number, from: number, to: number, set: boolean) {
  for (let r = from; r < to; r++) {
    if (set) bits[r * words + (p >>> 5)] |= 1 << (p & 31);
    else bits[r * words + (p >>> 5)] &= ~(1 << (p & 31));
  }
}

/**
 * `old` carried to `values` (a snapshot built from old's, whose positions `moved` were written or
 * are new): with old's cuts, each moved position taken out of its bucket and put in its value's.
 * A pass over the members and copies of the bitmaps instead of a bucket search per token, a
 * breath between its steps.
 */
async function carriedIndex(old: ColumnIndex, values: Float64Array, moved: Int32Array): Promise<ColumnIndex> {
  const n = values.length;
  const drift = old.drift + moved.length;
  if (drift > n * DRIFT) return buildIndex(values);
  const buckets = old.start.length - 1;
  const oldN = old.bucket.length;
  const bucket = new Uint16Array(n);
  bucket.set(old.bucket);
  const isMoved = new Uint8Array(n);
  const size = new Int32Array(buckets);
  for (let b = 0; b < buckets; b++) size[b] = old.start[b + 1] - old.start[b];
  const gained = new Uint8Array(buckets);
  const words = wordsOf(n);
  const prefix = widened(old.prefix, wordsOf(oldN), words);
  for (const p of moved) {
    const b = bucketOf(old.cuts, values[p]);
    isMoved[p] = 1;
    bucket[p] = b;
    size[b]++;
    gained[b] = 1;
    if (p < oldN) {
      const was = old.bucket[p];
      size[was]--;
      // Prefix row r holds the positions of buckets below r.
      if (b > was) markRows(prefix, words, p, was + 1, b + 1, false);
      else markRows(prefix, words, p, b + 1, was + 1, true);
    } else markRows(prefix, words, p, b + 1, buckets + 1, true);
  }
  await breathe();
  const start = new Int32Array(buckets + 1);
  for (let b = 0; b < buckets; b++) start[b + 1] = start[b] + size[b];
  const members = new Int32Array(n);
  const fill = start.slice(0, buckets);
  for (let b = 0; b < buckets; b++)
    for (let k = old.start[b]; k < old.start[b + 1]; k++)
      if (!isMoved[old.members[k]]) members[fill[b]++] = old.members[k];
  for (const p of moved) members[fill[bucket[p]]++] = p;
  // A bucket that only lost members keeps its value order; one that gained some is sorted again when it
  // straddles. Read with the members, in one step: a request may sort one of old's buckets in a breath.
  const ordered = old.ordered.map((o, b) => (gained[b] ? 0 : o));
  // Bounds that may be wider than the bucket's values (a member that left keeps its value in them) serve
  // alike: a bucket they show straddling a bound that it does not is searched, and found whole.
  const low = old.low.slice();
  const high = old.high.slice();
  for (const p of moved) {
    const b = bucket[p];
    if (b === buckets - 1) continue;
    if (values[p] < low[b]) low[b] = values[p];
    if (values[p] > high[b]) high[b] = values[p];
  }
  return { cuts: old.cuts, bucket, drift, members, values, start, low, high, prefix, ordered };
}

/** Bucket b's members in ascending value, once: sorting every bucket up front cost as much as a query's first use. */
function orderBucket(index: ColumnIndex, b: number): void {
  if (index.ordered[b]) return;
  const { members, values, start } = index;
  members.subarray(start[b], start[b + 1]).sort((x, y) => values[x] - values[y]);
  index.ordered[b] = 1;
}

/**
 * What a snapshot derives for its filters on first use: each column's index (and those under
 * way), each flag's bitmap, and the bitmap of matches requests share (allocated per request it
 * made the server's garbage collector run far more often, whose every run marks the whole snapshot).
 */
const derived = new WeakMap<
  Snapshot,
  {
    columns: Map<FilterColumn, ColumnIndex>;
    building: Map<FilterColumn, Promise<ColumnIndex>>;
    flags?: Int32Array;
    matches: Int32Array;
  }
>();

function derivedOf(s: Snapshot) {
  let d = derived.get(s);
  if (!d) {
    d = { columns: new Map(), building: new Map(), matches: new Int32Array(wordsOf(s.addresses.length)) };
    derived.set(s, d);
  }
  return d;
}

/** The index of `column` in `s`, built in steps on first use (one build shared by the requests that wait for it). */
function indexOf(s: Snapshot, column: FilterColumn): Promise<ColumnIndex> {
  const d = derivedOf(s);
  const built = d.columns.get(column);
  if (built) return Promise.resolve(built);
  let building = d.building.get(column);
  if (!building) {
    building = buildIndex(s.columns[column]!).then((index) => {
      d.columns.set(column, index);
      return index;
    });
    building.finally(() => d.building.delete(column)).catch(() => {});
    d.building.set(column, building);
  }
  return building;
}

/** Builds what filterMatches needs for `filter` on `s` that `s` has not yet: call it first. */
export async function filterIndexes(s: Snapshot, filter: TokenFilter, now: Date): Promise<void> {
  for (const bound of filterBounds(filter, now)) await indexOf(s, bound.column);
}

function columnIndex(s: Snapshot, column: FilterColumn): ColumnIndex {
  const index = derivedOf(s).columns.get(column);
  if (!index) throw new Error(`no ${column} index: filterIndexes comes before filterMatches`);
  return index;
}

/** Row f: a bitmap of the positions that raised RISK_FLAGS[f]. */
function flagBitmaps(s: Snapshot): Int32Array {
  const d = derivedOf(s);
  if (!d.flags) {
    d.flags = new Int32Array(RISK_FLAGS.length * wordsOf(s.flags.length));
    markFlags(d.flags, s, s.flags.keys());
  }
  return d.flags;
}

/** Sets each of `positions` in the flag bitmaps as its flags are in `s` (clearing the others). */
function markFlags(bits: Int32Array, s: Snapshot, positions: Iterable<number>) {
  const words = wordsOf(s.flags.length);
  for (const p of positions)
    for (let f = 0; f < RISK_FLAGS.length; f++) markRows(bits, words, p, f, f + 1, (s.flags[p] & (1 << f)) !== 0);
}

/**
 * What `base` derived for its filters, carried to `s`, built from it: `moved` holds the positions
 * written since (new ones included). Each carried index costs a few copies of its arrays at
 * every data version rather than a build on the version's first filtered request; a breath
 * between indexes. Those base gains meanwhile are carried too (their values are base's).
 */
export async function carryFilterIndexes(base: Snapshot, s: Snapshot, moved: Int32Array): Promise<void> {
  const from = derived.get(base);
  if (!from) return;
  const to = derivedOf(s);
  for (const [column, index] of [...from.columns]) {
    await breathe();
    to.columns.set(column, await carriedIndex(index, s.columns[column]!, moved));
  }
  if (from.flags) {
    to.flags = widened(from.flags, wordsOf(base.flags.length), wordsOf(s.flags.length));
    markFlags(to.flags, s, moved);
  }
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
 * flags) as a bitmap, and how many they are; null when the filter is empty. Its column indexes
 * must be built (filterIndexes). The bitmap is the snapshot's, shared by its requests: read it
 * before the next await.
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
    const { members, values, start, low, high, prefix } = index;
    // The buckets that fail whole, [from, to); a bucket that passes in part is searched for its failing side.
    let from = -1;
    let to = -1;
    for (let b = 0; b < start.length - 1; b++) {
      if (start[b] === start[b + 1]) continue;
      const passLow = test(low[b], bound.value);
      if (passLow !== test(high[b], bound.value)) {
        orderBucket(index, b);
        // The first member whose test differs from the lowest's: the failing side ends or begins there.
        const edge = firstReached(start[b], start[b + 1], (k) => test(values[members[k]], bound.value) !== passLow);
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
