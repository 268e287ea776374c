import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { billingCustomers } from "@/db/schema";
import type { Billing } from "./stripe";

/** The account's Stripe customer id, or null before its first checkout. */
export async function customerOf(db: Db, accountId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: billingCustomers.stripeCustomerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.accountId, accountId));
  return row?.id ?? null;
}

/**
 * The account's Stripe customer, created on first use. Concurrent first uses send the same
 * idempotency key, so Stripe creates one customer and both store the same id.
 */
export async function ensureCustomer(
  db: Db,
  billing: Billing,
  account: { id: string; email: string | null },
): Promise<string> {
  const existing = await customerOf(db, account.id);
  if (existing) return existing;
  const customer = await billing.stripe.customers.create(
    { ...(account.email && { email: account.email }), metadata: { account_id: account.id } },
    { idempotencyKey: `customer-${account.id}` },
  );
  await db
    .insert(billingCustomers)
    .values({ accountId: account.id, stripeCustomerId: customer.id })
    .onConflictDoNothing();
  return (await customerOf(db, account.id))!;
}
