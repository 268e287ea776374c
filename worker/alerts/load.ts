import type { Sql } from "@/db/client";
import type { FilterableToken, TokenFilter } from "@/lib/tokens/filter";

/*
 * Raw SQL on purpose: these reads run every cycle over every token, and timestamps travel as
 * epoch milliseconds so the result does not depend on whether drizzle has replaced the
 * client's date parsers (it does on the worker's shared client).
 */

export type CycleToken = FilterableToken & { address: string };

/**
 * Every token_metrics row, with just the columns the filter reads. Flags travel as one string:
 * postgres.js's array parser costs more than the rest of the row.
 */
export async function loadTokens(sql: Sql): Promise<CycleToken[]> {
  const rows = await sql<(CycleToken & { createdMs: number; flags: string })[]>`
    select address, liquidity_usd as "liquidityUsd", market_cap_usd as "marketCapUsd", risk_score as "riskScore",
           holder_growth1h_pct as "holderGrowth1hPct", array_to_string(risk_flags, ',') as flags,
           (extract(epoch from created_at) * 1000)::float8 as "createdMs"
      from token_metrics`;
  for (const r of rows) {
    r.riskFlags = r.flags ? r.flags.split(",") : [];
    r.createdAt = new Date(r.createdMs);
  }
  return rows;
}

/** Whether two loads of a token hold the same values in every field loaded (NaN equal to NaN). */
export function sameToken(a: CycleToken, b: CycleToken): boolean {
  return (
    same(a.liquidityUsd, b.liquidityUsd) &&
    same(a.marketCapUsd, b.marketCapUsd) &&
    same(a.riskScore, b.riskScore) &&
    same(a.holderGrowth1hPct, b.holderGrowth1hPct) &&
    same(a.createdAt.getTime(), b.createdAt.getTime()) &&
    a.riskFlags.join() === b.riskFlags.join()
  );
}
const same = (a: number, b: number) => a === b || (a !== a && b !== b);

/**
 * The live-alert rule, on an alert `a` and an api_keys row `k`: an alert is evaluated and fired
 * while it is active and its key is neither revoked nor moved to another account; other alerts
 * hold no matches (see recordMatches). Written as a join condition so that scans over every
 * alert stay hash joins: a subquery per row makes the planner estimate enough cost to
 * JIT-compile the statement, which alone took half a second.
 */
export const LIVE_KEY = `k.id = a.key_id and k.account_id = a.account_id and k.revoked_at is null`;

export type AlertState = { id: string; conditions: TokenFilter; matchDigest: string | null; live: boolean };

/** The live alerts, and the others that still hold matches (to be cleared). */
export async function loadAlerts(sql: Sql): Promise<AlertState[]> {
  return sql.unsafe<AlertState[]>(
    `select a.id, a.conditions, a.match_digest as "matchDigest", coalesce(a.status = 'active' and k.id is not null, false) as live
       from alerts a left join api_keys k on ${LIVE_KEY}
      where (a.status = 'active' and k.id is not null) or a.match_digest is not null`,
  );
}
