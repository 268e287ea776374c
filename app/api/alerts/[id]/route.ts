import { getDb } from "@/db/client";
import { deleteAlert } from "@/lib/alerts/service";
import { patchAlert } from "@/lib/api/alert-patch";
import { parseBody } from "@/lib/api/params";
import { updateAlertBody } from "@/lib/api/schemas/alerts";
import { withAccount, withMeteredAccount } from "@/lib/auth/route";
import { alertOwnerInAccount } from "@/lib/queries/account-alerts";

/** Changes one of the account's alerts (PATCH /v1/alerts/{id}'s body; the alerts service's gates). */
export const PATCH = withMeteredAccount<{ id: string }>(async (req, { account, params }) => {
  const patch = await parseBody(req, updateAlertBody);
  const db = getDb();
  return patchAlert(db, await alertOwnerInAccount(db, account.id, params.id), params.id, patch);
});

export const DELETE = withAccount<{ id: string }>(async (_req, { account, params }) => {
  const db = getDb();
  await deleteAlert(db, await alertOwnerInAccount(db, account.id, params.id), params.id);
  return null;
});
