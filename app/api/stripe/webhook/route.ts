import { getDb } from "@/db/client";
import { getBilling } from "@/lib/billing/stripe";
import { handleStripeWebhook } from "@/lib/billing/webhook";
import { log } from "@/lib/log";
import { requestTime } from "@/lib/queries/clock";

/**
 * Stripe's webhook endpoint: the body is read raw, as Stripe signed it. A failure answers 500,
 * so Stripe delivers the event again later.
 */
export async function POST(req: Request): Promise<Response> {
  const billing = getBilling();
  if (!billing) return Response.json({ error: "Billing is not configured." }, { status: 404 });
  try {
    const outcome = await handleStripeWebhook(getDb(), billing, await req.text(), req.headers.get("stripe-signature"), requestTime());
    return Response.json(outcome.body, { status: outcome.status });
  } catch (err) {
    log.error("stripe webhook failed", { error: err instanceof Error ? err.message : String(err) });
    return Response.json({ error: "Not processed; deliver again." }, { status: 500 });
  }
}
