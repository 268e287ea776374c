import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "@/db/client";
import { billingCustomers, stripeEvents } from "@/db/schema";
import { log } from "@/lib/log";
import { type Billing, idOf } from "./stripe";
import { syncSubscription } from "./subscriptions";

export type WebhookOutcome =
  | { status: 400; body: { error: string } }
  | { status: 200; body: { received: true; duplicate?: true; ignored?: string; plan?: string } };

/** The customer and subscription an event is about, for the events that can move a plan. */
function subscriptionOf(event: Stripe.Event): { customerId: string | null; subscriptionId: string | null } | null {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      return session.mode === "subscription"
        ? { customerId: idOf(session.customer), subscriptionId: idOf(session.subscription) }
        : null;
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = event.data.object;
      return { customerId: idOf(sub.customer), subscriptionId: sub.id };
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      return {
        customerId: idOf(invoice.customer),
        subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
      };
    }
    default:
      return null;
  }
}

/**
 * A Stripe webhook delivery: the signature is checked against the raw body, the event is stored
 * by id in the transaction that applies it (a redelivery does nothing; a failure rolls both back
 * and Stripe delivers again), and the subscription it is about is applied as Stripe has it now.
 */
export async function handleStripeWebhook(
  db: Db,
  billing: Billing,
  /** The body exactly as received: the signature covers its bytes. */
  payload: string | Uint8Array,
  signature: string | null,
  now: Date,
): Promise<WebhookOutcome> {
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error("no Stripe-Signature header");
    event = billing.stripe.webhooks.constructEvent(payload, signature, billing.settings.webhookSecret);
  } catch (err) {
    log.warn("stripe webhook refused", { error: (err instanceof Error ? err.message : String(err)).split("\n")[0] });
    return { status: 400, body: { error: "Invalid Stripe signature." } };
  }

  return db.transaction(async (t): Promise<WebhookOutcome> => {
    const tx = t as unknown as Db;
    const stored = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, created: new Date(event.created * 1000) })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (stored.length === 0) return { status: 200, body: { received: true, duplicate: true } };

    const about = subscriptionOf(event);
    if (!about) return { status: 200, body: { received: true, ignored: "event type" } };
    const { customerId, subscriptionId } = about;
    const [owner] = customerId
      ? await tx
          .select({ accountId: billingCustomers.accountId })
          .from(billingCustomers)
          .where(eq(billingCustomers.stripeCustomerId, customerId))
      : [];
    if (!owner || !customerId || !subscriptionId) {
      log.warn("stripe event names no subscription of a customer of ours", { event: event.id, type: event.type });
      return { status: 200, body: { received: true, ignored: "customer" } };
    }
    const change = await syncSubscription(tx, billing, { accountId: owner.accountId, customerId, subscriptionId }, now);
    if (change && change.from !== change.to)
      log.info("plan changed by billing", { account: owner.accountId, event: event.id, ...change });
    return { status: 200, body: { received: true, ...(change && { plan: change.to }) } };
  });
}
