import { getDb } from "@/db/client";
import { checkWebhookChange } from "@/lib/alerts/webhook-target";
import { parseBody } from "@/lib/api/params";
import { updateAlertBody } from "@/lib/api/schemas/alerts";
import { withAccount } from "@/lib/auth/route";
import { alertOwnerInAccount } from "@/lib/queries/account-alerts";
import { deleteAlert, updateAlert } from "@/lib/queries/alerts";

/** Changes one of the account's alerts (PATCH /v1/alerts/{id}'s body and plan gates). */
export const PATCH = withAccount<{ id: string }>(async (req, { account, params }) => {
  const patch = await parseBody(req, updateAlertBody);
  const db = getDb();
  if (patch.webhook_url) await checkWebhookChange(db, account.id, patch.webhook_url);
  return updateAlert(db, await alertOwnerInAccount(db, account.id, params.id), params.id, patch);
});

export const DELETE = withAccount<{ id: string }>(async (_req, { account, params }) => {
  const db = getDb();
  await deleteAlert(db, await alertOwnerInAccount(db, account.id, params.id), params.id);
  return null;
});
