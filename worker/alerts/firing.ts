import { names, PREPARED, type Tx, tableName } from "@/db/bulk";
import { accounts, alerts, type notifications, plans } from "@/db/schema";
import type { AlertNotification } from "@/lib/alerts/payload";
import { webhooksRefused } from "@/lib/alerts/service";
import type { AlertConditions } from "@/lib/domain/alert-conditions";
import type { AlertChannel, AlertKind } from "@/lib/domain/vocab";

/**
 * What every firing shares, whatever fired it (a token or price alert's new matches, fire.ts; a
 * wallet or smart-money alert's events, event-alerts.ts): where its notification goes, why it
 * cannot go when it cannot, and its outbox row.
 */
export type AlertTarget = {
  id: string;
  name: string;
  kind: AlertKind;
  conditions: AlertConditions;
  channel: AlertChannel;
  webhookUrl: string | null;
  email: string | null;
  planLabel: string;
  webhooks: boolean;
};

const [al, ac, pn] = [names(alerts), names(accounts), names(plans)];
/** The alerts $1 with their owners' email and plan. */
const TARGETS = `
  select a.${al.id} as id, a.${al.name} as name, a.${al.kind} as kind, a.${al.conditions} as conditions,
         a.${al.notificationChannel} as channel, a.${al.webhookUrl} as "webhookUrl",
         acc.${ac.email} as email, p.${pn.label} as "planLabel", p.${pn.webhooks} as webhooks
    from ${tableName(alerts)} a join ${tableName(accounts)} acc on acc.${ac.id} = a.${al.accountId}
    join ${tableName(plans)} p on p.${pn.id} = acc.${ac.plan}
   where a.${al.id} = any($1::text[])`;

/** The alerts `ids` with their owners' email and plan. */
export function loadTargets(sql: Tx, ids: string[]): Promise<AlertTarget[]> {
  return sql.unsafe<AlertTarget[]>(TARGETS, [ids], PREPARED);
}

/** `undeliverable`: why the notification is recorded as failed at once instead of sent. */
export type Firing = {
  alertId: string;
  channel: AlertChannel;
  recipient: string;
  payload: AlertNotification;
  undeliverable: string | null;
};

export function firingOf(a: AlertTarget, payload: AlertNotification): Firing {
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
    payload,
  };
}

/** The outbox row of a firing. */
export function notificationRow(f: Firing, idempotencyKey: string) {
  return {
    alertId: f.alertId,
    channel: f.channel,
    recipient: f.recipient,
    idempotencyKey,
    payload: f.payload,
    status: f.undeliverable ? "failed" : "pending",
    lastError: f.undeliverable,
  } satisfies Partial<typeof notifications.$inferInsert>;
}
