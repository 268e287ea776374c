import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { billingSubscriptions } from "@/db/schema";
import { ApiError } from "@/lib/api/errors";
import { config } from "@/lib/config";
import { ensureCustomer } from "./customers";
import type { PaidPlan } from "./settings";
import type { Billing } from "./stripe";
import { ENTITLED_STATUSES } from "./subscriptions";

/**
 * A Stripe Checkout session that subscribes the account to a paid plan. The plan itself changes
 * only when Stripe's webhook confirms the subscription. One paid subscription per account: a
 * change of plan or a cancellation goes through the billing portal.
 */
export async function createCheckoutSession(
  db: Db,
  billing: Billing,
  account: { id: string; email: string | null },
  plan: PaidPlan,
) {
  const [current] = await db
    .select({ id: billingSubscriptions.id })
    .from(billingSubscriptions)
    .where(
      and(eq(billingSubscriptions.accountId, account.id), inArray(billingSubscriptions.status, ENTITLED_STATUSES)),
    );
  if (current)
    throw new ApiError("FORBIDDEN", "The account already has a subscription: change or cancel it with Manage billing.");
  const customer = await ensureCustomer(db, billing, account);
  const price = billing.settings.prices[plan];
  const session = await billing.stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: account.id,
    // A metered price takes no quantity: Stripe bills what the meter events add up to.
    line_items: [plan === "api_tier" ? { price } : { price, quantity: 1 }],
    subscription_data: { metadata: { account_id: account.id } },
    success_url: `${config.appOrigin}/plan?checkout=done`,
    cancel_url: `${config.appOrigin}/plan`,
  });
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  return { url: session.url };
}
