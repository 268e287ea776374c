import { createHash } from "node:crypto";
import { insertRows, names, tableName, updateSql } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { accounts, alerts as alertsTable, apiKeys, notifications, plans } from "@/db/schema";
import { type EventAlert, type MatchedEvent, matchEvents } from "@/lib/alerts/event-match";
import { type AlertEvent, MAX_LISTED_MATCHES } from "@/lib/alerts/payload";
import { type EventRange, eventRange, rememberRange } from "./event-blocks";
import { type Firing, firingOf, loadTargets, notificationRow } from "./firing";
import { liveKey } from "./load";

/**
 * Wallet and smart-money alerts fire per on-chain event: after each block batch (the blocks an
 * indexing cycle added, event-blocks.ts), every live alert with matching events gets one
 * notification listing them, whatever it sent before (no cooldown: each event is news once).
 * Each kind is one query for the whole batch and all its alerts (lib/alerts/event-match.ts),
 * never a query per alert or per event. A notification's idempotency key is made of its alert
 * and its events' ids, and it commits with the batch's blocks being remembered, so a batch
 * evaluated again makes the same notification once.
 */
export type EventReport = { blocks: number; events: number; fired: number };

const al = names(alertsTable);
const ac = names(accounts);
const pn = names(plans);
/**
 * Fires the live alerts $2 at $1 under their row locks (a smart-money alert only while its
 * account's plan has them); returns those.
 */
const LOCK_FIRINGS = `${updateSql(
  alertsTable,
  { lastTriggeredAt: "$1::timestamptz" },
  `from ${tableName(apiKeys)} k, ${tableName(accounts)} acc, ${tableName(plans)} p`,
  `t.${al.id} = any($2::text[]) and ${liveKey("t")} and t.${al.status} = 'active'
   and acc.${ac.id} = t.${al.accountId} and p.${pn.id} = acc.${ac.plan}
   and (t.${al.kind} <> 'smart_money' or p.${pn.smartMoneyAlerts})`,
)} returning t.${al.id} as id`;

/** The same notification for the same alert and events, however often the batch is evaluated. */
const idempotencyKey = (alertId: string, events: readonly { id: string }[]) =>
  `ntf_${createHash("sha256")
    .update(`${alertId}:${events.map((e) => e.id).join(",")}`)
    .digest("base64url")
    .slice(0, 24)}`;

/**
 * One evaluation of the live event alerts: the blocks new since the last (event-blocks.ts),
 * recent enough to fire (`freshSince`), each kind's one query, one notification per alert with
 * matches, committed with the blocks remembered.
 */
export async function evaluateEventAlerts(sql: Sql, alerts: EventAlert[], now: Date, freshSince: Date) {
  // Blocks are remembered without alerts too: an alert fires on the blocks indexed after it is made.
  const range = await eventRange(sql, freshSince);
  if (!range?.due) return { blocks: 0, events: 0, fired: 0 } satisfies EventReport;
  const { after, to: upTo } = range;
  const matched = await matchEvents(sql, alerts, { after, upTo });
  const firings = await firingsOf(sql, matched, now);
  const fired = await commit(sql, range, firings, now);
  return { blocks: Math.max(0, upTo - after), events: matched.length, fired } satisfies EventReport;
}

type Keyed = { key: string; firing: Firing };

async function firingsOf(sql: Sql, matched: MatchedEvent[], now: Date): Promise<Keyed[]> {
  const byAlert = new Map<string, AlertEvent[]>();
  for (const { alertId, ...e } of matched) {
    const list = byAlert.get(alertId) ?? [];
    byAlert.set(alertId, list);
    list.push(e);
  }
  if (byAlert.size === 0) return [];
  return (await loadTargets(sql, [...byAlert.keys()])).map((a) => {
    const events = byAlert.get(a.id)!;
    const firing = firingOf(a, {
      type: "alert.triggered",
      alert: { id: a.id, name: a.name, kind: a.kind, conditions: a.conditions },
      triggered_at: now.toISOString(),
      matches: [],
      total_matches: 0,
      events: events.slice(0, MAX_LISTED_MATCHES),
      total_events: events.length,
    });
    return { key: idempotencyKey(a.id, events), firing };
  });
}

/** Commits the firings still live and the range as evaluated, together; returns how many fired. */
async function commit(sql: Sql, range: EventRange, firings: Keyed[], now: Date): Promise<number> {
  return sql.begin(async (tx) => {
    let fired = 0;
    if (firings.length) {
      const ids = firings.map((f) => f.firing.alertId);
      const rows = await tx.unsafe<{ id: string }[]>(LOCK_FIRINGS, [now.toISOString(), ids]);
      const locked = new Set(rows.map((r) => r.id));
      const made = firings.filter((f) => locked.has(f.firing.alertId)).map((f) => notificationRow(f.firing, f.key));
      await insertRows(tx, notifications, made, { onConflict: { target: ["idempotencyKey"], action: "nothing" } });
      fired = made.length;
    }
    await rememberRange(tx, range);
    return fired;
  });
}
