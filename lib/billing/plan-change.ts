import { and, eq, inArray, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, alerts, apiKeys, plans } from "@/db/schema";
import type { Plan } from "@/lib/domain/vocab";
import { applyKeyCap } from "@/lib/keys/store";
import { enqueueUnreportedUsage, lockAccount, startMetering } from "./metering";

export type PlanChange = { from: Plan; to: Plan; pausedAlerts: number; disabledKeys: number; enabledKeys: number };

/**
 * Moves an account to a plan: the one way a plan changes (verified Stripe webhooks, the keys
 * CLI). Leaving API Tier reports its last usage and drops the keys' own limits; entering it
 * starts metering; alerts the new plan does not allow (webhook, smart-money, beyond its cap) are
 * paused and keys beyond its cap are disabled (newest first), never deleted, and keys it allows
 * again come back. Null when there is no such account.
 */
export async function changePlan(db: Db, accountId: string, to: Plan, now: Date): Promise<PlanChange | null> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    if (!(await lockAccount(tx, accountId))) return null;
    const [{ plan: from }] = await tx.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
    if (from === to) return { from, to, pausedAlerts: 0, disabledKeys: 0, enabledKeys: 0 };
    if (from === "api_tier") {
      await enqueueUnreportedUsage(tx, accountId, now);
      await tx.update(apiKeys).set({ ratePerMinute: null, ratePerDay: null }).where(eq(apiKeys.accountId, accountId));
    }
    await tx.update(accounts).set({ plan: to }).where(eq(accounts.id, accountId));
    if (to === "api_tier") await startMetering(tx, accountId, now);
    const keys = await applyKeyCap(tx, accountId);
    return {
      from,
      to,
      pausedAlerts: await pauseAlertsBeyondPlan(tx, accountId, to, now),
      disabledKeys: keys.disabled,
      enabledKeys: keys.enabled,
    };
  });
}

/**
 * Pauses the active alerts a plan does not allow: webhook ones without webhooks, smart-money ones
 * without those, then the newest beyond its limit.
 */
async function pauseAlertsBeyondPlan(tx: Db, accountId: string, planId: Plan, now: Date): Promise<number> {
  const [plan] = await tx.select().from(plans).where(eq(plans.id, planId));
  let paused = 0;
  const refused = [];
  if (!plan.webhooks) refused.push(eq(alerts.notificationChannel, "webhook"));
  if (!plan.smartMoneyAlerts) refused.push(eq(alerts.kind, "smart_money"));
  if (refused.length) {
    const rows = await tx
      .update(alerts)
      .set({ status: "paused", updatedAt: now })
      .where(and(eq(alerts.accountId, accountId), eq(alerts.status, "active"), or(...refused)))
      .returning({ id: alerts.id });
    paused += rows.length;
  }
  const beyondLimit = tx
    .select({ id: alerts.id })
    .from(alerts)
    .where(and(eq(alerts.accountId, accountId), eq(alerts.status, "active")))
    .orderBy(alerts.createdAt, alerts.id)
    .offset(plan.maxActiveAlerts);
  const rows = await tx
    .update(alerts)
    .set({ status: "paused", updatedAt: now })
    .where(inArray(alerts.id, beyondLimit))
    .returning({ id: alerts.id });
  return paused + rows.length;
}
