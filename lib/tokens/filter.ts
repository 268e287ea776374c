import { and, arrayOverlaps, not, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { tokenMetrics } from "@/db/schema";
import { numberParam } from "@/lib/api/schemas/common";
import { RISK_FLAGS, type RiskFlag } from "@/lib/scoring/vocab";

/**
 * The token filter of GET /v1/tokens and of alert conditions: one declaration, from which come
 * the query-string schema, the JSON-body schema, the SQL and the in-memory predicate.
 */
type Bound = "min" | "max";
type NumericFilter = {
  bound: Bound;
  column: "liquidityUsd" | "marketCapUsd" | "riskScore" | "holderGrowth1hPct" | "ageHours";
  range: [number, number];
  description: string;
};

const USD_MAX = 1e18;
export const NUMERIC_FILTERS = {
  min_liquidity_usd: { bound: "min", column: "liquidityUsd", range: [0, USD_MAX], description: "Minimum liquidity in USD" },
  max_market_cap_usd: { bound: "max", column: "marketCapUsd", range: [0, USD_MAX], description: "Maximum market cap in USD" },
  min_market_cap_usd: { bound: "min", column: "marketCapUsd", range: [0, USD_MAX], description: "Minimum market cap in USD" },
  max_risk_score: { bound: "max", column: "riskScore", range: [0, 100], description: "Maximum risk score, 0 to 100" },
  min_holder_growth_1h_pct: {
    bound: "min",
    column: "holderGrowth1hPct",
    range: [-100, 1e9],
    description: "Minimum holder growth over the past hour, in percent",
  },
  max_age_hours: { bound: "max", column: "ageHours", range: [0, 1e7], description: "Maximum token age in hours" },
} as const satisfies Record<string, NumericFilter>;

type NumericFilterName = keyof typeof NUMERIC_FILTERS;
export type TokenFilter = Partial<Record<NumericFilterName, number>> & { exclude_flags?: RiskFlag[] };
export const TOKEN_FILTER_FIELDS = [...Object.keys(NUMERIC_FILTERS), "exclude_flags"] as (keyof TokenFilter)[];

const entries = Object.entries(NUMERIC_FILTERS) as [NumericFilterName, NumericFilter][];
const flagsDescription = `Risk flags to exclude: ${RISK_FLAGS.join(", ")}`;

function checkMarketCapRange(f: TokenFilter, ctx: z.RefinementCtx) {
  if (f.min_market_cap_usd !== undefined && f.max_market_cap_usd !== undefined && f.min_market_cap_usd > f.max_market_cap_usd) {
    ctx.addIssue({ code: "custom", path: ["min_market_cap_usd"], message: "must not exceed max_market_cap_usd" });
  }
}

/** Query-string form: numbers as decimal strings, exclude_flags comma-separated. */
export const tokenFilterQueryShape = {
  ...(Object.fromEntries(entries.map(([name, f]) => [name, numberParam(f.range[0], f.range[1], f.description).optional()])) as Record<
    NumericFilterName,
    z.ZodOptional<ReturnType<typeof numberParam>>
  >),
  exclude_flags: z
    .string()
    .transform((s) => s.split(","))
    .pipe(z.array(z.enum(RISK_FLAGS, { error: `each flag must be one of ${RISK_FLAGS.join(", ")}` })))
    .optional()
    .meta({ description: `${flagsDescription}, comma-separated` }),
};

/** JSON-body form (alert conditions): numbers as numbers, exclude_flags as an array; at least one. */
export const tokenFilterBodySchema = z
  .strictObject({
    ...(Object.fromEntries(
      entries.map(([name, f]) => [name, z.number().min(f.range[0]).max(f.range[1]).optional().meta({ description: f.description })]),
    ) as Record<NumericFilterName, z.ZodOptional<z.ZodNumber>>),
    exclude_flags: z.array(z.enum(RISK_FLAGS)).min(1).optional().meta({ description: flagsDescription }),
  })
  .superRefine(checkMarketCapRange)
  .refine((f) => Object.values(f).some((v) => v !== undefined), {
    message: "must contain at least one filter field",
  })
  .meta({ id: "AlertConditions" });

export const refineTokenFilter = checkMarketCapRange;

export function pickTokenFilter(values: Record<string, unknown>): TokenFilter {
  const filter: Record<string, unknown> = {};
  for (const field of TOKEN_FILTER_FIELDS) if (values[field] !== undefined) filter[field] = values[field];
  return filter as TokenFilter;
}

/** SQL conditions over token_metrics. */
export function tokenFilterSql(filter: TokenFilter, now: Date): SQL | undefined {
  const conditions: SQL[] = [];
  for (const [name, f] of entries) {
    const value = filter[name];
    if (value === undefined) continue;
    if (f.column === "ageHours") {
      // created_at >= now - age keeps the condition indexable.
      conditions.push(sql`${tokenMetrics.createdAt} >= ${new Date(now.getTime() - value * 3_600_000).toISOString()}::timestamptz`);
      continue;
    }
    const column = tokenMetrics[f.column];
    conditions.push(f.bound === "min" ? sql`${column} >= ${value}` : sql`${column} <= ${value}`);
  }
  if (filter.exclude_flags?.length) {
    conditions.push(not(arrayOverlaps(tokenMetrics.riskFlags, filter.exclude_flags)));
  }
  return conditions.length ? and(...conditions) : undefined;
}

export type FilterableToken = {
  liquidityUsd: number;
  marketCapUsd: number;
  riskScore: number;
  holderGrowth1hPct: number;
  createdAt: Date;
  riskFlags: string[];
};

export type RangeColumn = "liquidityUsd" | "marketCapUsd" | "riskScore" | "holderGrowth1hPct" | "createdAtMs";
export type FilterRange = { column: RangeColumn; min: number; max: number };

/**
 * The numeric conditions as closed ranges over columns (the age as a lower bound on created_at
 * in ms): the one evaluation that matchesTokenFilter and the list index both apply.
 */
export function filterRanges(filter: TokenFilter, now: Date): FilterRange[] {
  const ranges: FilterRange[] = [];
  for (const [name, f] of entries) {
    const value = filter[name];
    if (value === undefined) continue;
    if (f.column === "ageHours") ranges.push({ column: "createdAtMs", min: now.getTime() - value * 3_600_000, max: Infinity });
    else ranges.push({ column: f.column, min: f.bound === "min" ? value : -Infinity, max: f.bound === "max" ? value : Infinity });
  }
  return ranges;
}

/** NaN passes a bound (it is not below a min nor above a max), as in SQL's NULL-free columns. */
export const inRange = (x: number, r: FilterRange) => !(x < r.min || x > r.max);

/** The same conditions as tokenFilterSql, evaluated in memory (alert evaluation). */
export function matchesTokenFilter(t: FilterableToken, filter: TokenFilter, now: Date): boolean {
  for (const r of filterRanges(filter, now)) {
    if (!inRange(r.column === "createdAtMs" ? t.createdAt.getTime() : t[r.column], r)) return false;
  }
  return !filter.exclude_flags?.some((flag) => t.riskFlags.includes(flag));
}

const ageHours = (t: FilterableToken, now: Date) => (now.getTime() - t.createdAt.getTime()) / 3_600_000;

/** Why a token matches: the value behind each condition, for alert messages. */
export function explainMatch(t: FilterableToken, filter: TokenFilter, now: Date): Record<string, number | string[]> {
  const why: Record<string, number | string[]> = {};
  for (const [name, f] of entries) {
    if (filter[name] === undefined) continue;
    why[f.column === "ageHours" ? "age_hours" : snake(f.column)] = f.column === "ageHours" ? ageHours(t, now) : t[f.column];
  }
  if (filter.exclude_flags) why.risk_flags = t.riskFlags;
  return why;
}

const snake = (s: string) => s.replace(/[A-Z0-9]+/g, (m) => `_${m.toLowerCase()}`);
