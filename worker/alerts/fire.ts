import { insertRows, names, updateSql } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { alertMatches, alerts as alertsTable, notifications } from "@/db/schema";
import { type AlertNotification, MAX_LISTED_MATCHES } from "@/lib/alerts/payload";
import { webhooksRefused } from "@/lib/alerts/service";
import { explainMatch, type TokenFilter } from "@/lib/domain/token-filter";
import type { AlertChannel } from "@/lib/domain/vocab";
import { newId } from "@/lib/keys/secret";
import { liveKey } from "./load";
import type { CycleToken } from "./tokens";

/** An alert fires at most once per this period; what newly matches meanwhile waits for the next firing. */
export const COOLDOWN_MS = 15 * 60_000;

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
type AlertInfo = {
  id: string;
  name: string;
  conditions: TokenFilter;
  channel: AlertChannel;
  webhookUrl: string | null;
  email: string | null;
  planLabel: string;
  webhooks: boolean;
};
/** `undeliverable`: why the notification is recorded as failed at once instead of sent. */
type Firing = { alertId: string; channel: AlertChannel; recipient: string; payload: AlertNotification; undeliverable: string | null };

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
  const ids = [...byAlert.keys()];
  const alerts = await sql<AlertInfo[]>`
    select a.id, a.name, a.conditions, a.notification_channel as channel, a.webhook_url as "webhookUrl", acc.email,
           p.label as "planLabel", p.webhooks
      from alerts a join accounts acc on acc.id = a.account_id join plans p on p.id = acc.plan
     where a.id = any(${ids}::text[])`;
  const listed = [...new Set([...byAlert.values()].flatMap((l) => l.slice(0, MAX_LISTED_MATCHES).map((p) => p.address)))];
  const names = new Map(
    (
      await sql<{ address: string; name: string; symbol: string }[]>`
      select address, name, symbol from tokens where address = any(${listed}::text[])`
    ).map((t) => [t.address, t]),
  );

  const firings: Firing[] = alerts.map((a) => {
    const matches = byAlert.get(a.id)!;
    const recipient = (a.channel === "webhook" ? a.webhookUrl : a.email) ?? "";
    return {
      alertId: a.id,
      channel: a.channel,
      recipient,
      // A webhook alert of an account whose plan no longer has webhooks (a downgrade) stops.
      undeliverable:
        a.channel === "webhook" && !a.webhooks
          ? webhooksRefused({ label: a.planLabel })
          : recipient
            ? null
            : a.channel === "webhook"
              ? "Not sent: the alert has no webhook URL. Edit the alert and set one."
              : "Not sent: your account has no email address. Sign in by email link, or switch the alert to a webhook.",
      payload: {
        type: "alert.triggered",
        alert: { id: a.id, name: a.name, conditions: a.conditions },
        triggered_at: now.toISOString(),
        matches: matches.slice(0, MAX_LISTED_MATCHES).map((m) => ({
          address: m.address,
          name: names.get(m.address)?.name ?? "",
          symbol: names.get(m.address)?.symbol ?? "",
          matched_at: new Date(m.matchedMs).toISOString(),
          values: explainMatch(byAddress.get(m.address)!, a.conditions, now),
        })),
        total_matches: matches.length,
      },
    };
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
      batch.map((f) => ({
        alertId: f.alertId,
        channel: f.channel,
        recipient: f.recipient,
        idempotencyKey: newId("ntf"),
        payload: f.payload,
        status: f.undeliverable ? "failed" : "pending",
        lastError: f.undeliverable,
      })),
    );
    // Exactly the matches read above: the evaluator is the only writer of alert_matches.
    await tx.unsafe(MARK_NOTIFIED, [now.toISOString(), batch.map((f) => f.alertId)]);
    return batch.length;
  });
}
