import { getDb } from "@/db/client";
import { sendTestEvent } from "@/lib/alerts/test-event";
import { webhookTransport } from "@/lib/alerts/webhook";
import { authorizeDashboard } from "@/lib/api/auth";
import { auth } from "@/lib/auth";
import { clientMeter } from "@/lib/auth/client-address";
import { withAccount } from "@/lib/auth/route";
import { config } from "@/lib/config";
import { alertOwnerInAccount } from "@/lib/queries/account-alerts";

/**
 * Sends one of the account's webhook alerts a test event now and says how its receiver answered.
 * Each takes a request from the account's plan limits, as the dashboard's market routes do, so
 * the server is no cannon aimed at someone else's host. The receiver gets most of the deadline.
 */
export const POST = withAccount<{ id: string }>(async (req, { account, params }) => {
  await authorizeDashboard((await auth())?.user?.id ?? null, clientMeter(req.headers));
  const db = getDb();
  const transport = webhookTransport({
    timeoutMs: Math.floor(config.REQUEST_TIMEOUT_MS * 0.75),
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
  });
  return sendTestEvent(db, await alertOwnerInAccount(db, account.id, params.id), params.id, transport);
});
