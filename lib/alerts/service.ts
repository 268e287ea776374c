import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { alerts, apiKeys } from "@/db/schema";
import type { AlertDefinition } from "@/lib/domain/alert-conditions";
import { Forbidden, InvalidInput } from "@/lib/domain/errors";
import type { AlertChannel, AlertKind, AlertStatus } from "@/lib/domain/vocab";
import { newId, randomBase62 } from "@/lib/keys/secret";
import { createKey } from "@/lib/keys/store";
import { type AlertOwner, findOwnedAlert, toAlert } from "@/lib/queries/alerts";
import { type PlanLimits, planOfAccount } from "@/lib/queries/plans";
import { ALERTS_KEY_NAME } from "./key-name";
import { checkWebhookTarget } from "./webhook-target";

/**
 * The alerts service: every change to an alert, from the API (/v1/alerts) or the dashboard
 * (/api/alerts), goes through here, so the plan's gates (the active-alert limit, the webhook
 * channel, smart-money alerts) and the webhook target check hold the same at every entry point.
 */

/** The webhook channel's gate, the same wherever a webhook is set, fired or delivered. */
export const webhooksRefused = (plan: Pick<PlanLimits, "label">) =>
  `The webhook channel is not available on the ${plan.label} plan.`;

function requireWebhooks(plan: Pick<PlanLimits, "label" | "webhooks">): void {
  if (!plan.webhooks) throw new Forbidden(webhooksRefused(plan), "notification_channel");
}

/** The smart-money alerts' gate, the same wherever one is made, resumed or previewed. */
export function requireKind(plan: Pick<PlanLimits, "label" | "smartMoneyAlerts">, kind: AlertKind): void {
  if (kind === "smart_money" && !plan.smartMoneyAlerts) {
    throw new Forbidden(`Smart-money alerts are not available on the ${plan.label} plan.`, "kind");
  }
}

/**
 * A request that sets a webhook target: the plan's gate first, so an account without webhooks
 * learns nothing about a host (not even whether it resolves), then the target itself. Outside
 * any transaction: a DNS lookup must not hold the account's lock.
 */
async function checkWebhookChange(db: Db, accountId: string, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  requireWebhooks(await planOfAccount(db, accountId));
  await checkWebhookTarget(url);
}

/**
 * Locks the account and checks the plan's gates for an alert of `kind` that will be active on
 * `channel`. The lock makes the active-alert limit exact when requests race.
 */
type Gated = { kind: AlertKind; channel: AlertChannel; activating: boolean; excludeId?: string };

async function checkPlanGates(tx: Db, accountId: string, { kind, channel, activating, excludeId }: Gated) {
  const plan = await planOfAccount(tx, accountId, true);
  if (channel === "webhook") requireWebhooks(plan);
  requireKind(plan, kind);
  if (!activating) return;
  const [{ active }] = await tx
    .select({ active: count() })
    .from(alerts)
    .where(
      and(
        eq(alerts.accountId, accountId),
        eq(alerts.status, "active"),
        excludeId ? sql`${alerts.id} <> ${excludeId}` : undefined,
      ),
    );
  if (active >= plan.maxActiveAlerts) {
    throw new Forbidden(
      `The ${plan.label} plan allows ${plan.maxActiveAlerts} active alerts; pause or delete one first.`,
    );
  }
}

const newWebhookSecret = () => `whsec_${randomBase62(32)}`;

/** An alert to create: a kind with its conditions (no kind: a token filter), a name and a channel. */
export type NewAlert = AlertDefinition & {
  name: string;
  notification_channel: AlertChannel;
  webhook_url?: string;
};

export async function createAlert(db: Db, owner: AlertOwner, input: NewAlert) {
  await checkWebhookChange(db, owner.accountId, input.webhook_url);
  const kind = input.kind ?? "token";
  return db.transaction(async (tx) => {
    const gated = { kind, channel: input.notification_channel, activating: true };
    await checkPlanGates(tx as unknown as Db, owner.accountId, gated);
    const webhookSecret = input.notification_channel === "webhook" ? newWebhookSecret() : null;
    const [row] = await tx
      .insert(alerts)
      .values({
        id: newId("alrt"),
        keyId: owner.keyId,
        accountId: owner.accountId,
        name: input.name,
        kind,
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

/**
 * The dashboard creates an alert under one of the account's live keys (alerts belong to a key,
 * as in the API). An account without a live key need not make one first: without `keyId`, the
 * alert goes under a new key named ALERTS_KEY_NAME (its secret is never shown; rotate it to
 * manage the alert from a script).
 */
export async function createAlertForKey(db: Db, accountId: string, keyId: string | undefined, input: NewAlert) {
  const live = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  if (keyId === undefined && live.length === 0) keyId = (await createKey(db, accountId, ALERTS_KEY_NAME)).id;
  else if (!live.some((k) => k.id === keyId)) throw new InvalidInput("key_id", "Choose one of your live API keys.");
  return createAlert(db, { keyId: keyId!, accountId }, input);
}

/**
 * A change of an alert. New conditions come with their kind (none: a token filter), and a new
 * kind only with conditions: kind and conditions always agree (the API reads a PATCH's conditions
 * as the alert's kind when the body names none: lib/api/alert-patch.ts).
 */
type AlertFields = Partial<Pick<NewAlert, "name" | "notification_channel" | "webhook_url">> & { status?: AlertStatus };
export type AlertPatch = AlertFields & ({ kind?: undefined; conditions?: undefined } | AlertDefinition);

export async function updateAlert(db: Db, owner: AlertOwner, id: string, patch: AlertPatch) {
  await checkWebhookChange(db, owner.accountId, patch.webhook_url);
  return db.transaction(async (tx) => {
    const current = await findOwnedAlert(tx as unknown as Db, owner, id);
    const kind = patch.conditions ? (patch.kind ?? "token") : current.kind;
    const channel = patch.notification_channel ?? current.notificationChannel;
    const status = patch.status ?? current.status;
    const activating = status === "active" && current.status !== "active";
    if (channel === "webhook" && !(patch.webhook_url ?? current.webhookUrl)) {
      throw new InvalidInput("webhook_url", "webhook_url is required for the webhook channel.");
    }
    // Every change that leaves a webhook or a gated kind in place passes the plan's gates (after a downgrade too).
    const newTarget = channel === "webhook" && patch.webhook_url !== undefined;
    if (activating || newTarget || channel !== current.notificationChannel || kind !== current.kind) {
      await checkPlanGates(tx as unknown as Db, owner.accountId, { kind, channel, activating, excludeId: id });
    }
    const switchingToWebhook = channel === "webhook" && !current.webhookSecret;
    const [row] = await tx
      .update(alerts)
      .set({
        name: patch.name ?? current.name,
        kind,
        conditions: patch.conditions ?? current.conditions,
        notificationChannel: channel,
        webhookUrl: channel === "webhook" ? (patch.webhook_url ?? current.webhookUrl) : null,
        webhookSecret: channel === "webhook" ? (current.webhookSecret ?? newWebhookSecret()) : null,
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
  await findOwnedAlert(db, owner, id);
  await db.delete(alerts).where(eq(alerts.id, id));
}
