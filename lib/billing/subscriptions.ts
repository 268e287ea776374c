import { and, eq, inArray } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "@/db/client";
import { billingSubscriptions } from "@/db/schema";
import type { Plan } from "@/lib/domain/vocab";
import { log } from "@/lib/log";
import { lockAccount } from "./metering";
import { changePlan, type PlanChange } from "./plan-change";
import { type BillingSettings, planOfPrice } from "./settings";
import { type Billing, idOf } from "./stripe";

/**
 * Statuses that keep the plan: past_due while Stripe retries the card; unpaid, canceled and
 * the rest fall back to Free (a cancellation takes effect at the period end: Stripe keeps the
 * subscription active until then).
 */
export const ENTITLED_STATUSES = ["active", "trialing", "past_due"];

const PLAN_ORDER: Plan[] = ["free", "pro", "api_tier"];

/** The best of some plans (null for none). */
const bestPlan = (candidates: (Plan | null)[]): Plan | null =>
  candidates.reduce<Plan | null>(
    (best, p) => (p !== null && (best === null || PLAN_ORDER.indexOf(p) > PLAN_ORDER.indexOf(best)) ? p : best),
    null,
  );

/** The plan a subscription buys: the best of its items' prices that are ours. */
function planOfSubscription(settings: BillingSettings, sub: Stripe.Subscription): Plan | null {
  return bestPlan(sub.items.data.map((item) => planOfPrice(settings, item.price.id)));
}

/** The best plan among the account's entitled subscriptions, else Free. */
async function entitledPlan(tx: Db, accountId: string): Promise<Plan> {
  const rows = await tx
    .select({ plan: billingSubscriptions.plan })
    .from(billingSubscriptions)
    .where(and(eq(billingSubscriptions.accountId, accountId), inArray(billingSubscriptions.status, ENTITLED_STATUSES)));
  return bestPlan(rows.map((r) => r.plan)) ?? "free";
}

/**
 * Applies a subscription's state as Stripe has it now, whatever event told us about it: an event
 * delivered late or twice can only re-apply the present. The account stays locked from the fetch
 * to the commit, so of two deliveries racing the later fetch is the one that lands.
 */
export async function syncSubscription(
  tx: Db,
  billing: Billing,
  target: { accountId: string; customerId: string; subscriptionId: string },
  now: Date,
): Promise<PlanChange | null> {
  if (!(await lockAccount(tx, target.accountId))) return null;
  const sub = await billing.stripe.subscriptions.retrieve(target.subscriptionId);
  const plan = planOfSubscription(billing.settings, sub);
  if (idOf(sub.customer) !== target.customerId || !plan) {
    log.warn("stripe subscription ignored: another customer's, or no price of ours", { subscription: sub.id });
    return null;
  }
  const state = {
    accountId: target.accountId,
    plan,
    status: sub.status,
    currentPeriodEnd: seconds(Math.max(...sub.items.data.map((i) => i.current_period_end))),
    cancelAt: sub.cancel_at === null ? null : seconds(sub.cancel_at),
    updatedAt: now,
  };
  await tx
    .insert(billingSubscriptions)
    .values({ id: sub.id, ...state })
    .onConflictDoUpdate({ target: billingSubscriptions.id, set: state });
  return changePlan(tx, target.accountId, await entitledPlan(tx, target.accountId), now);
}

const seconds = (unix: number) => new Date(unix * 1000);
