import { getDb } from "@/db/client";
import { withAccount } from "@/lib/auth/route";
import { createPortalSession } from "@/lib/billing/portal";
import { requireBilling } from "@/lib/billing/stripe";

/** Opens the Stripe Billing Portal (cards, cancellation, invoices); the browser goes to the returned URL. */
export const POST = withAccount(async (_req, { account }) =>
  createPortalSession(getDb(), requireBilling(), account.id),
);
