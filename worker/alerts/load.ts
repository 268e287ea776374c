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

/**
 * An alert is live, evaluated and fired, while it is active and its key is neither revoked nor
 * moved to another account; other alerts have no matches (see recordMatches).
 */
export const LIVE_ALERT = `a.status = 'active' and exists (
  select 1 from api_keys k where k.id = a.key_id and k.account_id = a.account_id and k.revoked_at is null)`;

export type LiveAlert = { id: string; conditions: TokenFilter; matchDigest: string | null };

export async function loadLiveAlerts(sql: Sql): Promise<LiveAlert[]> {
  return sql.unsafe<LiveAlert[]>(`select a.id, a.conditions, a.match_digest as "matchDigest" from alerts a where ${LIVE_ALERT}`);
}
