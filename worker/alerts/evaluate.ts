import type { Sql } from "@/db/client";
import { TokenIndex } from "@/lib/alerts/token-index";
import { log } from "@/lib/log";
import type { TokenFilter } from "@/lib/tokens/filter";
import type { CycleContext } from "@/worker/worker";
import { hashAddresses, matchDigest } from "./digest";
import { fireAlerts } from "./fire";
import { loadLiveAlerts, loadTokens } from "./load";
import { recordMatches, type MatchSet } from "./record";

export type EvaluationReport = {
  tokens: number;
  /** Live alerts evaluated, and how many distinct conditions they hold. */
  alerts: number;
  conditions: number;
  /** Alerts whose match set changed, and the rows that changed. */
  changed: number;
  inserted: number;
  deleted: number;
  /** Matches removed from alerts no longer live (paused, key revoked). */
  cleared: number;
  /** Alerts fired, one outbox notification each. */
  fired: number;
  ms: { load: number; match: number; record: number; fire: number; total: number };
};

/** Alerts with equal conditions share one evaluation. */
const conditionsKey = (f: TokenFilter) =>
  JSON.stringify(
    Object.entries(f)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v]),
  );

/**
 * One evaluation of every live alert against token_metrics as of `now` (the clock is
 * injectable for tests): loads the tokens once, computes each alert's match set with the
 * filter of GET /v1/tokens, records what changed, then fires what is due (see fireAlerts).
 * Runs in the worker holding the indexing lock: it assumes it is the only writer of
 * alert_matches and match_digest.
 */
export async function evaluateAlerts(sql: Sql, opts: { now?: Date } = {}): Promise<EvaluationReport> {
  const now = opts.now ?? new Date();
  const t0 = performance.now();
  const [tokens, alerts] = await Promise.all([loadTokens(sql), loadLiveAlerts(sql)]);
  const t1 = performance.now();

  const index = new TokenIndex(tokens, now);
  const hashes = hashAddresses(tokens.map((t) => t.address));
  const sets = new Map<string, { positions: number[]; digest: string | null }>();
  const changed: MatchSet[] = [];
  for (const alert of alerts) {
    const key = conditionsKey(alert.conditions);
    let set = sets.get(key);
    if (!set) {
      const positions = index.matching(alert.conditions);
      sets.set(key, (set = { positions, digest: matchDigest(hashes, positions) }));
    }
    if (set.digest !== alert.matchDigest) {
      changed.push({ alertId: alert.id, addresses: set.positions.map((i) => tokens[i].address), digest: set.digest });
    }
  }
  const t2 = performance.now();

  const recorded = await recordMatches(sql, changed, now);
  const t3 = performance.now();
  const fired = await fireAlerts(sql, tokens, now);
  const t4 = performance.now();

  return {
    tokens: tokens.length,
    alerts: alerts.length,
    conditions: sets.size,
    changed: changed.length,
    ...recorded,
    fired,
    ms: { load: t1 - t0, match: t2 - t1, record: t3 - t2, fire: t4 - t3, total: t4 - t0 },
  };
}

/**
 * startWorker's afterCycle hook. Evaluates only once the indexer has caught up with the head:
 * during a backfill token_metrics describe the past, and alerts would fire about it.
 */
export async function evaluateAlertsAfterCycle(ctx: Pick<CycleContext, "sql" | "head" | "indexedBlock">): Promise<void> {
  if (ctx.indexedBlock < ctx.head) return;
  const report = await evaluateAlerts(ctx.sql);
  const { ms, ...counts } = report;
  const busy = report.changed || report.cleared || report.fired;
  log[busy ? "info" : "debug"]("alerts evaluated", { ...counts, ms: Math.round(ms.total) });
}
