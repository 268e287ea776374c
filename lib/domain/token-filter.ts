import { RISK_FLAGS, type RiskFlag } from "./vocab";

/**
 * The token filter of GET /v1/tokens and of alert conditions, declared once: the API's query
 * and body schemas (lib/api/schemas/token-filter.ts), the dashboard's filter inputs, the list
 * index (lib/queries/token-list-index.ts) and the alert engine (worker/alerts) all read it from
 * here, and all evaluate it through `filterBounds`, so an alert matches exactly what the list
 * shows for the same conditions.
 */

/** The token values a filter reads: token_metrics columns, the age as created_at in epoch ms. */
export const FILTER_COLUMNS = [
  "liquidityUsd",
  "marketCapUsd",
  "riskScore",
  "holderGrowth1hPct",
  "createdAtMs",
] as const;
export type FilterColumn = (typeof FILTER_COLUMNS)[number];

/** Each column's name in the API (an alert's explanation of a match names its values so). */
const API_NAMES = {
  liquidityUsd: "liquidity_usd",
  marketCapUsd: "market_cap_usd",
  riskScore: "risk_score",
  holderGrowth1hPct: "holder_growth_1h_pct",
  createdAtMs: "age_hours",
} as const satisfies Record<FilterColumn, string>;

type Side = "min" | "max";
type NumericFilter = {
  side: Side;
  column: FilterColumn;
  /** The values the API accepts. */
  range: [number, number];
  description: string;
  /** What a value of the field becomes as a bound on the column (the default: itself). */
  toBound?: (value: number, now: Date) => number;
};

const HOUR_MS = 3_600_000;
const USD_MAX = 1e18;

export const NUMERIC_FILTERS = {
  min_liquidity_usd: {
    side: "min",
    column: "liquidityUsd",
    range: [0, USD_MAX],
    description: "Minimum liquidity in USD",
  },
  max_market_cap_usd: {
    side: "max",
    column: "marketCapUsd",
    range: [0, USD_MAX],
    description: "Maximum market cap in USD",
  },
  min_market_cap_usd: {
    side: "min",
    column: "marketCapUsd",
    range: [0, USD_MAX],
    description: "Minimum market cap in USD",
  },
  max_risk_score: { side: "max", column: "riskScore", range: [0, 100], description: "Maximum risk score, 0 to 100" },
  min_holder_growth_1h_pct: {
    side: "min",
    column: "holderGrowth1hPct",
    range: [-100, 1e9],
    description: "Minimum holder growth over the past hour, in percent",
  },
  // At most so many hours old: created at or after now minus the age.
  max_age_hours: {
    side: "min",
    column: "createdAtMs",
    range: [0, 1e7],
    description: "Maximum token age in hours",
    toBound: (hours, now) => now.getTime() - hours * HOUR_MS,
  },
} as const satisfies Record<string, NumericFilter>;

export type NumericFilterName = keyof typeof NUMERIC_FILTERS;
export type TokenFilter = Partial<Record<NumericFilterName, number>> & { exclude_flags?: RiskFlag[] };
export const TOKEN_FILTER_FIELDS = [...Object.keys(NUMERIC_FILTERS), "exclude_flags"] as (keyof TokenFilter)[];

const numericFilters = Object.entries(NUMERIC_FILTERS) as [NumericFilterName, NumericFilter][];

/** A filter's fields picked out of a wider object (a parsed query string). */
export function pickTokenFilter(values: Record<string, unknown>): TokenFilter {
  const filter: Record<string, unknown> = {};
  for (const field of TOKEN_FILTER_FIELDS) if (values[field] !== undefined) filter[field] = values[field];
  return filter as TokenFilter;
}

/** The rule across fields that no single field's range states; the API reports it on `param`. */
export function tokenFilterConflict(f: TokenFilter): { param: NumericFilterName; message: string } | null {
  if (
    f.min_market_cap_usd !== undefined &&
    f.max_market_cap_usd !== undefined &&
    f.min_market_cap_usd > f.max_market_cap_usd
  ) {
    return { param: "min_market_cap_usd", message: "must not exceed max_market_cap_usd" };
  }
  return null;
}

/** What every evaluation of a filter reads: its token values and the flags it raised. */
export type FilterableToken = Record<FilterColumn, number> & { riskFlags: readonly string[] };

/** One condition of a filter (BOUND_TESTS says what it means). */
export type FilterBound = { column: FilterColumn; side: Side; value: number };

/**
 * What a bound means, written once: `min` passes x unless x < value, `max` unless x > value, so
 * NaN (no value) passes either. Every evaluation calls these: passesBound, and the list's filter
 * index (lib/queries/token-filter-index.ts) for its buckets' edges and the tokens it tests.
 */
export const BOUND_TESTS = {
  min: (x: number, value: number) => !(x < value),
  max: (x: number, value: number) => !(x > value),
} as const satisfies Record<Side, (x: number, value: number) => boolean>;

/** The numeric conditions of `filter` as of `now`, in declaration order: the one reading of a filter. */
export function filterBounds(filter: TokenFilter, now: Date): FilterBound[] {
  const bounds: FilterBound[] = [];
  for (const [name, f] of numericFilters) {
    const value = filter[name];
    if (value !== undefined)
      bounds.push({ column: f.column, side: f.side, value: f.toBound ? f.toBound(value, now) : value });
  }
  return bounds;
}

export const passesBound = (x: number, b: FilterBound): boolean => BOUND_TESTS[b.side](x, b.value);

/** The risk flags as bits (the list index keeps each token's flags as one integer). */
const FLAG_BITS = new Map<string, number>(RISK_FLAGS.map((f, i) => [f, 1 << i]));
export const flagMask = (flags: readonly string[]) => flags.reduce((m, f) => m | (FLAG_BITS.get(f) ?? 0), 0);

/** The filter evaluated for one token. */
export function matchesTokenFilter(t: FilterableToken, filter: TokenFilter, now: Date): boolean {
  for (const b of filterBounds(filter, now)) if (!passesBound(t[b.column], b)) return false;
  return !filter.exclude_flags?.some((flag) => t.riskFlags.includes(flag));
}

/** Why a token matches: the value behind each condition, as the API names it (alert messages). */
export function explainMatch(t: FilterableToken, filter: TokenFilter, now: Date): Record<string, number | string[]> {
  const why: Record<string, number | string[]> = {};
  for (const [name, f] of numericFilters) {
    if (filter[name] === undefined) continue;
    why[API_NAMES[f.column]] = f.column === "createdAtMs" ? (now.getTime() - t.createdAtMs) / HOUR_MS : t[f.column];
  }
  if (filter.exclude_flags) why.risk_flags = [...t.riskFlags];
  return why;
}
