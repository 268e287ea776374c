import { z } from "zod";
import { getDb } from "@/db/client";
import { parseBody } from "@/lib/api/params";
import { withAccount } from "@/lib/auth/route";
import { createCheckoutSession } from "@/lib/billing/checkout";
import { PAID_PLANS } from "@/lib/billing/settings";
import { requireBilling } from "@/lib/billing/stripe";

const checkout = z.strictObject({ plan: z.enum(PAID_PLANS) });

/** Starts a Stripe Checkout for a paid plan; the browser goes to the returned URL. */
export const POST = withAccount(async (req, { account }) => {
  const billing = requireBilling();
  const { plan } = await parseBody(req, checkout);
  return createCheckoutSession(getDb(), billing, account, plan);
});
