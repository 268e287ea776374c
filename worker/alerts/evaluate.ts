import type { Sql } from "@/db/client";
import type { EventAlert } from "@/lib/alerts/event-match";
import { config } from "@/lib/config";
import { isEventKind } from "@/lib/domain/alert-conditions";
import type { TokenFilter } from "@/lib/domain/token-filter";
import { log } from "@/lib/log";
import type { CycleContext } from "@/worker/worker";
import { hashAddresses, matchDigest } from "./digest";
import { type EventReport, evaluateEventAlerts } from "./event-alerts";
import { fireAlerts } from "./fire";
import { type AlertState, loadAlerts } from "./load";
import { type MatchDiff, MatchMemory } from "./memory";
import { otherKindChanges } from "./price";
import { type MatchChange, recordMatches } from "./record";
import { TokenLoader } from "./tokens";

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
  /** Wallet and smart-money alerts (event-alerts.ts): blocks read, events matched, alerts fired. */
  events: EventReport;
  ms: { load: number; match: number; record: number; fire: number; events: number; total: number };
};

/** While the chain is idle, evaluations are this far apart. */
export const IDLE_INTERVAL_MS = 10_000;

/** Alerts with equal conditions share one evaluation. */
const conditionsKey = (f: TokenFilter) =>
  JSON.stringify(
    Object.entries(f)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v]),
  );

/**
 * Evaluates every live alert after each indexing cycle; keep one per worker, it remembers the
 * previous cycle's match sets.
 */
export class AlertEvaluator {
  private readonly memory = new MatchMemory();
  private readonly tokens = new TokenLoader();
  private lastRun = 0;

  /**
   * One evaluation as of `now`, the indexed head's time: loads the tokens once, computes each
   * alert's match set with the filter of GET /v1/tokens (a price alert's with its price
   * condition: price.ts), records what changed, then fires what is due (see fireAlerts). Then
   * the wallet and smart-money alerts fire on the events of the blocks indexed since
   * (event-alerts.ts), those within the status lag threshold of `now` (older ones are the past
   * a worker caught up on). Runs in the worker holding the indexing lock: it assumes it is the
   * only writer of alert_matches, match_digest and alert_event_blocks.
   */
  async evaluate(sql: Sql, now: Date): Promise<EvaluationReport> {
    const t0 = performance.now();
    const [tokens, states] = await Promise.all([this.tokens.load(sql), loadAlerts(sql)]);
    const alerts = states.filter((a): a is AlertState & { conditions: TokenFilter } => a.live && a.kind === "token");
    const t1 = performance.now();

    const keys = alerts.map((a) => conditionsKey(a.conditions));
    const byConditions = new Map<string, TokenFilter>();
    alerts.forEach((a, i) => byConditions.set(keys[i], a.conditions));
    const cycle = this.memory.match(tokens, now, byConditions);
    const hashes = hashAddresses(tokens.map((t) => t.address));
    const digests = new Map([...cycle.sets].map(([key, positions]) => [key, matchDigest(hashes, positions)]));
    // Alerts with the same conditions and the same stored set change alike: one diff each.
    const diffs = new Map<string, MatchDiff | undefined>();
    const changed: MatchChange[] = [];
    for (const [i, alert] of alerts.entries()) {
      const digest = digests.get(keys[i])!;
      if (digest === alert.matchDigest) continue;
      const positions = cycle.sets.get(keys[i])!;
      const pair = `${alert.matchDigest}|${keys[i]}`;
      if (!diffs.has(pair)) diffs.set(pair, cycle.diff(alert.matchDigest, positions));
      const diff = diffs.get(pair);
      changed.push({ alertId: alert.id, digest, ...(diff ?? { addresses: positions.map((p) => tokens[p].address) }) });
    }
    this.memory.remember(cycle, digests);
    changed.push(
      ...otherKindChanges(
        states.filter((a) => a.live && a.kind !== "token"),
        tokens,
        hashes,
      ),
    );
    const t2 = performance.now();

    const notLive = states.filter((a) => !a.live).map((a) => a.id);
    const recorded = await recordMatches(sql, changed, notLive, now);
    const t3 = performance.now();
    const fired = await fireAlerts(sql, tokens, now);
    const t4 = performance.now();
    const eventAlerts = states.filter((a): a is AlertState & EventAlert => a.live && isEventKind(a.kind));
    const freshSince = new Date(now.getTime() - config.STATUS_MAX_LAG_SECONDS * 1000);
    const events = await evaluateEventAlerts(sql, eventAlerts, now, freshSince);
    const t5 = performance.now();

    return {
      tokens: tokens.length,
      alerts: alerts.length,
      conditions: byConditions.size,
      changed: changed.length,
      ...recorded,
      fired: fired + events.fired,
      events,
      ms: { load: t1 - t0, match: t2 - t1, record: t3 - t2, fire: t4 - t3, events: t5 - t4, total: t5 - t0 },
    };
  }

  /**
   * startWorker's afterCycle hook. Evaluates once the indexer has caught up with the head
   * (during a backfill token_metrics describe the past, and alerts would fire about it), after
   * every cycle that indexed something, and every IDLE_INTERVAL_MS otherwise: alerts are created
   * without a block. "Now" is the indexed head's time, so ages and cooldowns run on chain time.
   */
  readonly afterCycle = async (ctx: Pick<CycleContext, "sql" | "head" | "indexedBlock" | "indexedTime" | "step">): Promise<void> => {
    if (ctx.indexedBlock < ctx.head) return;
    if (ctx.step === "idle" && Date.now() - this.lastRun < IDLE_INTERVAL_MS) return;
    this.lastRun = Date.now();
    const report = await this.evaluate(ctx.sql, new Date(ctx.indexedTime * 1000));
    const { ms, ...counts } = report;
    const busy = report.changed || report.cleared || report.fired;
    log[busy ? "info" : "debug"]("alerts evaluated", { ...counts, ms: Math.round(ms.total) });
  };
}
