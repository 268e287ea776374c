import { getDb } from "@/db/client";
import { toApiError } from "@/lib/api/errors";
import { readBodyCapped } from "@/lib/api/params";
import { getBilling } from "@/lib/billing/stripe";
import { handleStripeWebhook } from "@/lib/billing/webhook";
import { log } from "@/lib/log";
import { requestTime } from "@/lib/queries/clock";

/**
 * Stripe's webhook endpoint: the body is read raw, as Stripe signed it (capped like every body).
 * A failure answers 500, so Stripe delivers the event again later.
 */
export async function POST(req: Request): Promise<Response> {
  const billing = getBilling();
  if (!billing) return Response.json({ error: "Billing is not configured." }, { status: 404 });
  try {
    const outcome = await handleStripeWebhook(
      getDb(),
      billing,
      await readBodyCapped(req),
      req.headers.get("stripe-signature"),
      requestTime(),
    );
    return Response.json(outcome.body, { status: outcome.status });
  } catch (err) {
    const refused = toApiError(err);
    if (refused.status < 500) return Response.json({ error: refused.message }, { status: refused.status });
    log.error("stripe webhook failed", { error: err instanceof Error ? err.message : String(err) });
    return Response.json({ error: "Not processed; deliver again." }, { status: 500 });
  }
}
