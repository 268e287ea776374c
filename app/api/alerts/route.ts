import { z } from "zod";
import { getDb } from "@/db/client";
import { checkWebhookChange } from "@/lib/alerts/webhook-target";
import { ApiError } from "@/lib/api/errors";
import { parseBody } from "@/lib/api/params";
import { createAlertBody } from "@/lib/api/schemas/alerts";
import { withAccount } from "@/lib/auth/route";
import { listKeys } from "@/lib/keys/store";
import { createAlert } from "@/lib/queries/alerts";

/** POST /v1/alerts's body, plus the key the alert belongs to (alerts are scoped to a key). */
const newAlert = z.object({ key_id: z.string(), alert: createAlertBody });

export const POST = withAccount(async (req, { account }) => {
  const { key_id, alert } = await parseBody(req, newAlert);
  const db = getDb();
  const key = (await listKeys(db, account.id)).find((k) => k.id === key_id && !k.revokedAt);
  if (!key) throw new ApiError("INVALID_PARAMS", "Choose one of your live API keys.", "key_id");
  if (alert.webhook_url) await checkWebhookChange(db, account.id, alert.webhook_url);
  return createAlert(db, { keyId: key.id, accountId: account.id }, alert);
});
