import type { Db } from "@/db/client";
import { ApiError } from "@/lib/api/errors";
import { config } from "@/lib/config";
import { customerOf } from "./customers";
import type { Billing } from "./stripe";

/** A Stripe Billing Portal session (cards, cancellation, invoices) for the account's customer. */
export async function createPortalSession(db: Db, billing: Billing, accountId: string) {
  const customer = await customerOf(db, accountId);
  if (!customer) throw new ApiError("FORBIDDEN", "Nothing to manage yet: the account has never subscribed.");
  const session = await billing.stripe.billingPortal.sessions.create({
    customer,
    return_url: `${config.appOrigin}/plan`,
  });
  return { url: session.url };
}
