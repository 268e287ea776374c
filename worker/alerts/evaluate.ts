import { names, PREPARED, tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { syncState } from "@/db/schema";
import type { EventAlert } from "@/lib/alerts/event-match";
import { config } from "@/lib/config";
import { isEventKind } from "@/lib/domain/alert-conditions";
import type { TokenFilter } from "@/lib/domain/token-filter";
import { log } from "@/lib/log";
import { isLagging, lagBehind } from "@/lib/queries/status";
import type { CycleContext } from "@/worker/worker";
import { hashAddresses, matchDigest } from "./digest";
import { type EventReport, evaluateEventAlerts } from "./event-alerts";
import { type AlertState, loadAlerts } from "./load";
import { TokenKeys } from "./match-sets";
import { type MatchDiff, MatchMemory } from "./memory";
import { otherKindChanges } from "./price";
import { type MatchChange, recordMatches } from "./record";
import { TokenLoader } from "./tokens";

export type EvaluationReport = {
  tokens: number;
  /** Live alerts evaluated, and how many distinct conditions they hold. */
  alerts: number;
  conditions: number;
  /** Alerts whose match set changed, and the tokens that joined and left their sets. */
  changed: number;
  inserted: number;
  deleted: number;
  /** Alerts no longer live (paused, key revoked) whose matches were dropped. */
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
  private readonly keys = new TokenKeys();
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
    const members = new Map<string, string[]>();
    const changed: MatchChange[] = [];
    for (const [i, alert] of alerts.entries()) {
      const digest = digests.get(keys[i])!;
      if (digest === alert.matchDigest) continue;
      const positions = cycle.sets.get(keys[i])!;
      const pair = `${alert.matchDigest}|${keys[i]}`;
      if (!diffs.has(pair)) diffs.set(pair, cycle.diff(alert.matchDigest, positions));
      let addresses = members.get(keys[i]);
      if (!addresses) members.set(keys[i], (addresses = positions.map((p) => tokens[p].address)));
      changed.push({ alertId: alert.id, digest, addresses, diff: diffs.get(pair) });
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
    this.keys.retain(tokens.map((t) => t.address));
    const { ms, ...written } = await recordMatches(sql, this.keys, { changed, notLive, tokens, now });
    const t3 = performance.now();
    const eventAlerts = states.filter((a): a is AlertState & EventAlert => a.live && isEventKind(a.kind));
    const freshSince = new Date(now.getTime() - config.STATUS_MAX_LAG_SECONDS * 1000);
    const events = await evaluateEventAlerts(sql, eventAlerts, now, freshSince);
    const t4 = performance.now();

    return {
      tokens: tokens.length,
      alerts: alerts.length,
      conditions: byConditions.size,
      changed: changed.length,
      ...written,
      fired: written.fired + events.fired,
      events,
      ms: { load: t1 - t0, match: t2 - t1, ...ms, events: t4 - t3, total: t4 - t0 },
    };
  }

  /**
   * startWorker's afterCycle hook. Evaluates only near the chain's head, as /v1/status defines it
   * (isLagging: within STATUS_MAX_LAG_SECONDS of the head the worker's probe last read, and at
   * the head this cycle read): while the worker catches up (a first start, after downtime, a
   * backfill the chain outran) token_metrics describe the past, and alerts would announce it.
   * They wait, then the first evaluation near the head fires once on the present state. Runs
   * after every cycle that indexed something, and every IDLE_INTERVAL_MS otherwise: alerts are
   * created without a block. "Now" is the indexed head's time, so ages, cooldowns and
   * last_triggered_at run on chain time, within the lag threshold of the head.
   */
  readonly afterCycle = async (
    ctx: Pick<CycleContext, "sql" | "head" | "indexedBlock" | "indexedTime" | "step">,
  ): Promise<void> => {
    const indexedTime = new Date(ctx.indexedTime * 1000);
    if (ctx.indexedBlock < ctx.head) return;
    if (ctx.step === "idle" && Date.now() - this.lastRun < IDLE_INTERVAL_MS) return;
    if (isLagging(lagBehind(await probedHead(ctx.sql), ctx.indexedBlock, indexedTime))) return;
    this.lastRun = Date.now();
    const report = await this.evaluate(ctx.sql, indexedTime);
    const { ms, ...counts } = report;
    const busy = report.changed || report.cleared || report.fired;
    log[busy ? "info" : "debug"]("alerts evaluated", { ...counts, ms: Math.round(ms.total) });
  };
}

const ss = names(syncState);
/** The chain's head as the worker's head probe last wrote it (worker/indexer/head.ts); none before it has. */
const PROBED_HEAD = `
  select ${ss.headBlock}::float8 as number, extract(epoch from ${ss.headBlockTime})::float8 as timestamp
    from ${tableName(syncState)} where ${ss.headBlock} is not null and ${ss.headBlockTime} is not null
   order by ${ss.chainId} limit 1`;

/** The chain's head as the worker's head probe last wrote it (worker/indexer/head.ts); null before it has. */
async function probedHead(sql: Sql) {
  const [head] = await sql.unsafe<{ number: number; timestamp: number }[]>(PROBED_HEAD, [], PREPARED);
  return head ?? null;
}
