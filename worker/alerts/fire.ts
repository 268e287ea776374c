import { insertRows, names, updateSql } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { alertMatches, alerts as alertsTable, notifications } from "@/db/schema";
import { MAX_LISTED_MATCHES } from "@/lib/alerts/payload";
import { ALERT_COOLDOWN_MS as COOLDOWN_MS, explainTokenMatch, type PriceConditions } from "@/lib/domain/alert-conditions";
import type { TokenFilter } from "@/lib/domain/token-filter";
import { newId } from "@/lib/keys/secret";
import { type Firing, firingOf, loadTargets, notificationRow } from "./firing";
import { liveKey } from "./load";
import type { CycleToken } from "./tokens";

export { COOLDOWN_MS };

/** Alerts fired per transaction: each firing commits with its outbox row, a batch keeps them short. */
const FIRINGS_PER_TRANSACTION = 500;

const al = names(alertsTable);
/** Fires the live alerts $2 that did not fire since $3 at $1, under their row locks; returns those. */
const LOCK_FIRINGS = `${updateSql(
  alertsTable,
  { lastTriggeredAt: "$1::timestamptz" },
  "from api_keys k",
  `t.${al.id} = any($2::text[]) and ${liveKey("t")} and t.${al.status} = 'active'
   and (t.${al.lastTriggeredAt} is null or t.${al.lastTriggeredAt} <= $3::timestamptz)`,
)} returning t.${al.id} as id`;

const m = names(alertMatches);
/** Marks the matches of alerts $2 as notified at $1. */
const MARK_NOTIFIED = updateSql(alertMatches, { notifiedAt: "$1::timestamptz" }, "", `t.${m.alertId} = any($2::text[]) and t.${m.notifiedAt} is null`);

type Pending = { alertId: string; address: string; matchedMs: number };

/**
 * Fires every live alert that has unnotified matches and did not fire within COOLDOWN_MS: one
 * notification listing what newly matched since its last firing and still matches, with the
 * values that made each token match. A firing's last_triggered_at, its matches' notified_at and
 * its outbox row commit in one transaction. `tokens` are the cycle's tokens, the matches having
 * just been recorded from them.
 */
export async function fireAlerts(sql: Sql, tokens: readonly CycleToken[], now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - COOLDOWN_MS).toISOString();
  const pending = await sql.unsafe<Pending[]>(
    `select m.alert_id as "alertId", m.token_address as address, (extract(epoch from m.matched_at) * 1000)::float8 as "matchedMs"
       from alert_matches m join alerts a on a.id = m.alert_id join api_keys k on ${liveKey("a")}
      where m.notified_at is null and a.status = 'active' and (a.last_triggered_at is null or a.last_triggered_at <= $1::timestamptz)
      order by m.alert_id, m.matched_at, m.token_address`,
    [cutoff],
  );
  if (pending.length === 0) return 0;

  const byAddress = new Map(tokens.map((t) => [t.address, t]));
  const byAlert = new Map<string, Pending[]>();
  for (const p of pending) {
    if (!byAddress.has(p.address)) continue;
    const list = byAlert.get(p.alertId) ?? [];
    byAlert.set(p.alertId, list);
    list.push(p);
  }
  const alerts = await loadTargets(sql, [...byAlert.keys()]);
  const listed = [...new Set([...byAlert.values()].flatMap((l) => l.slice(0, MAX_LISTED_MATCHES).map((p) => p.address)))];
  const names = new Map(
    (
      await sql<{ address: string; name: string; symbol: string }[]>`
      select address, name, symbol from tokens where address = any(${listed}::text[])`
    ).map((t) => [t.address, t]),
  );

  const firings: Firing[] = alerts.map((a) => {
    const matches = byAlert.get(a.id)!;
    // Token and price alerts hold matches (a price alert its one token: price.ts).
    const kind = a.kind === "price" ? "price" : "token";
    const conditions = a.conditions as TokenFilter | PriceConditions;
    return firingOf(a, {
      type: "alert.triggered",
      alert: { id: a.id, name: a.name, kind: a.kind, conditions: a.conditions },
      triggered_at: now.toISOString(),
      matches: matches.slice(0, MAX_LISTED_MATCHES).map((m) => ({
        address: m.address,
        name: names.get(m.address)?.name ?? "",
        symbol: names.get(m.address)?.symbol ?? "",
        matched_at: new Date(m.matchedMs).toISOString(),
        values: explainTokenMatch(kind, byAddress.get(m.address)!, conditions, now),
      })),
      total_matches: matches.length,
    });
  });

  let fired = 0;
  for (let i = 0; i < firings.length; i += FIRINGS_PER_TRANSACTION) {
    fired += await commitFirings(sql, firings.slice(i, i + FIRINGS_PER_TRANSACTION), now, cutoff);
  }
  return fired;
}

/** Commits the firings still due; returns how many fired (one notification each). */
async function commitFirings(sql: Sql, firings: Firing[], now: Date, cutoff: string): Promise<number> {
  return sql.begin(async (tx) => {
    // Re-checked under the row lock: an alert paused or fired since the read above does not fire.
    const locked = await tx.unsafe<{ id: string }[]>(LOCK_FIRINGS, [now.toISOString(), firings.map((f) => f.alertId), cutoff]);
    const fired = new Set(locked.map((r) => r.id));
    const batch = firings.filter((f) => fired.has(f.alertId));
    if (batch.length === 0) return 0;
    await insertRows(
      tx,
      notifications,
      batch.map((f) => notificationRow(f, newId("ntf"))),
    );
    // Exactly the matches read above: the evaluator is the only writer of alert_matches.
    await tx.unsafe(MARK_NOTIFIED, [now.toISOString(), batch.map((f) => f.alertId)]);
    return batch.length;
  });
}
