import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { alerts, notifications } from "@/db/schema";
import { ApiError } from "@/lib/api/errors";
import type { TokenFilter } from "@/lib/domain/token-filter";
import type { AlertChannel, AlertStatus } from "@/lib/domain/vocab";
import { newId, randomBase62 } from "@/lib/keys/secret";
import { iso } from "./format";
import { planOfAccount, requireWebhooks } from "./plans";

type AlertRow = typeof alerts.$inferSelect;
type NotificationRow = typeof notifications.$inferSelect;
export type AlertOwner = { keyId: string; accountId: string };

const RECENT_DELIVERIES = 20;

export function toAlert(a: AlertRow) {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    conditions: a.conditions as TokenFilter,
    notification_channel: a.notificationChannel,
    ...(a.webhookUrl ? { webhook_url: a.webhookUrl } : {}),
    created_at: iso(a.createdAt),
    last_triggered_at: a.lastTriggeredAt ? iso(a.lastTriggeredAt) : null,
  };
}

/**
 * Locks the account and checks the plan's gates for an alert that will be active on `channel`.
 * The lock makes the active-alert limit exact when requests race.
 */
async function checkPlanGates(tx: Db, accountId: string, channel: AlertChannel, activating: boolean, excludeId?: string) {
  const plan = await planOfAccount(tx, accountId, true);
  if (channel === "webhook") requireWebhooks(plan);
  if (!activating || plan.maxActiveAlerts === null) return;
  const [{ active }] = await tx
    .select({ active: count() })
    .from(alerts)
    .where(and(eq(alerts.accountId, accountId), eq(alerts.status, "active"), excludeId ? sql`${alerts.id} <> ${excludeId}` : undefined));
  if (active >= plan.maxActiveAlerts) {
    throw new ApiError("FORBIDDEN", `The ${plan.label} plan allows ${plan.maxActiveAlerts} active alerts; pause or delete one first.`);
  }
}

export type NewAlert = {
  name: string;
  conditions: TokenFilter;
  notification_channel: AlertChannel;
  webhook_url?: string;
};

export async function createAlert(db: Db, owner: AlertOwner, input: NewAlert) {
  return db.transaction(async (tx) => {
    await checkPlanGates(tx as unknown as Db, owner.accountId, input.notification_channel, true);
    const webhookSecret = input.notification_channel === "webhook" ? `whsec_${randomBase62(32)}` : null;
    const [row] = await tx
      .insert(alerts)
      .values({
        id: newId("alrt"),
        keyId: owner.keyId,
        accountId: owner.accountId,
        name: input.name,
        conditions: input.conditions,
        notificationChannel: input.notification_channel,
        webhookUrl: input.webhook_url ?? null,
        webhookSecret,
      })
      .returning();
    const { last_triggered_at: _, ...alert } = toAlert(row);
    // The signing secret is shown once, here.
    return webhookSecret ? { ...alert, webhook_secret: webhookSecret } : alert;
  });
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

async function findOwned(db: Db, owner: AlertOwner, id: string): Promise<AlertRow> {
  const [row] = await db
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.keyId, owner.keyId)));
  // Another key's alert is indistinguishable from a missing one.
  if (!row) throw new ApiError("NOT_FOUND", "Alert not found.");
  return row;
}

export async function getAlert(db: Db, owner: AlertOwner, id: string) {
  const row = await findOwned(db, owner, id);
  const deliveries = await db.select().from(notifications).where(eq(notifications.alertId, id)).orderBy(desc(notifications.id)).limit(RECENT_DELIVERIES);
  return {
    ...toAlert(row),
    deliveries: deliveries.map(toDelivery),
  };
}

export function toDelivery(n: NotificationRow) {
  return {
    id: String(n.id),
    channel: n.channel,
    status: n.status,
    attempts: n.attempts,
    created_at: iso(n.createdAt),
    sent_at: n.sentAt ? iso(n.sentAt) : null,
    last_error: n.lastError,
    tokens: ((n.payload as { matches?: { address: string }[] }).matches ?? []).map((m) => m.address),
  };
}

export type AlertPatch = Partial<NewAlert> & { status?: AlertStatus };

export async function updateAlert(db: Db, owner: AlertOwner, id: string, patch: AlertPatch) {
  return db.transaction(async (tx) => {
    const current = await findOwned(tx as unknown as Db, owner, id);
    const channel = patch.notification_channel ?? (current.notificationChannel as AlertChannel);
    const status = patch.status ?? current.status;
    const activating = status === "active" && current.status !== "active";
    if (channel === "webhook" && !(patch.webhook_url ?? current.webhookUrl)) {
      throw new ApiError("INVALID_PARAMS", "webhook_url is required for the webhook channel.", "webhook_url");
    }
    // Every change that leaves a webhook in place passes the plan's gate (after a downgrade too).
    if (activating || channel !== current.notificationChannel || (channel === "webhook" && patch.webhook_url !== undefined)) {
      await checkPlanGates(tx as unknown as Db, owner.accountId, channel, activating, id);
    }
    const switchingToWebhook = channel === "webhook" && !current.webhookSecret;
    const [row] = await tx
      .update(alerts)
      .set({
        name: patch.name ?? current.name,
        conditions: patch.conditions ?? current.conditions,
        notificationChannel: channel,
        webhookUrl: channel === "webhook" ? (patch.webhook_url ?? current.webhookUrl) : null,
        webhookSecret: channel === "webhook" ? (current.webhookSecret ?? `whsec_${randomBase62(32)}`) : null,
        status,
        updatedAt: new Date(),
      })
      .where(eq(alerts.id, id))
      .returning();
    const alert = toAlert(row);
    return switchingToWebhook ? { ...alert, webhook_secret: row.webhookSecret } : alert;
  });
}

export async function deleteAlert(db: Db, owner: AlertOwner, id: string) {
  await findOwned(db, owner, id);
  await db.delete(alerts).where(eq(alerts.id, id));
}
