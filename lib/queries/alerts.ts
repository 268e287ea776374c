import { and, count, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { alerts, notifications } from "@/db/schema";
import type { alert, delivery } from "@/lib/api/schemas/alerts";
import type { AlertConditions } from "@/lib/domain/alert-conditions";
import { NotFound } from "@/lib/domain/errors";
import type { AlertStatus } from "@/lib/domain/vocab";
import { iso } from "./format";

type AlertRow = typeof alerts.$inferSelect;
type NotificationRow = typeof notifications.$inferSelect;
export type AlertOwner = { keyId: string; accountId: string };

const RECENT_DELIVERIES = 20;

/**
 * A webhook URL as shown back: never with a user name or password, which the alerts service
 * refuses but an alert saved before it did may carry (deliveries still use them).
 */
export function shownWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (!parsed.username && !parsed.password) return url;
  parsed.username = "";
  parsed.password = "";
  return parsed.toString();
}

export function toAlert(a: AlertRow): z.infer<typeof alert> {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    kind: a.kind,
    conditions: a.conditions as AlertConditions,
    notification_channel: a.notificationChannel,
    ...(a.webhookUrl ? { webhook_url: shownWebhookUrl(a.webhookUrl) } : {}),
    created_at: iso(a.createdAt),
    last_triggered_at: a.lastTriggeredAt ? iso(a.lastTriggeredAt) : null,
  };
}

export type AlertListQuery = { status: AlertStatus | "all"; page: number; limit: number };

export async function listAlerts(db: Db, owner: AlertOwner, q: AlertListQuery) {
  const where = and(eq(alerts.keyId, owner.keyId), q.status === "all" ? undefined : eq(alerts.status, q.status));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(alerts)
      .where(where)
      .orderBy(desc(alerts.createdAt), desc(alerts.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ total: count() }).from(alerts).where(where),
  ]);
  return { data: rows.map(toAlert), total };
}

/** One of the owner's alerts; another key's alert is indistinguishable from a missing one. */
export async function findOwnedAlert(db: Db, owner: AlertOwner, id: string): Promise<AlertRow> {
  const [row] = await db
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.keyId, owner.keyId)));
  if (!row) throw new NotFound("Alert not found.");
  return row;
}

export async function getAlert(db: Db, owner: AlertOwner, id: string) {
  const row = await findOwnedAlert(db, owner, id);
  const deliveries = await db
    .select()
    .from(notifications)
    .where(eq(notifications.alertId, id))
    .orderBy(desc(notifications.id))
    .limit(RECENT_DELIVERIES);
  return {
    ...toAlert(row),
    deliveries: deliveries.map(toDelivery),
  };
}

export function toDelivery(n: NotificationRow): z.infer<typeof delivery> {
  return {
    id: String(n.id),
    channel: n.channel,
    status: n.status,
    attempts: n.attempts,
    created_at: iso(n.createdAt),
    sent_at: n.sentAt ? iso(n.sentAt) : null,
    last_error: n.lastError,
    tokens: announcedTokens(n.payload),
  };
}

/** The tokens a notification announced: its matches, or the tokens of the events it listed (each once). */
function announcedTokens(payload: unknown): string[] {
  const p = payload as { matches?: { address: string }[]; events?: { token_address: string }[] };
  return [...new Set([...(p.matches ?? []).map((m) => m.address), ...(p.events ?? []).map((e) => e.token_address)])];
}
