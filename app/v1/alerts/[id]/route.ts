import { getDb } from "@/db/client";
import { checkWebhookChange } from "@/lib/alerts/webhook-target";
import { noContent, route, withApiKey } from "@/lib/api/handler";
import { parseBody, parsePath, parseQuery } from "@/lib/api/params";
import { alertIdParam, updateAlertBody } from "@/lib/api/schemas/alerts";
import { emptyQuery } from "@/lib/api/schemas/common";
import { deleteAlert, getAlert, updateAlert } from "@/lib/queries/alerts";

const alertId = (url: URL, id: string) => {
  parseQuery(url, emptyQuery);
  return parsePath(id, alertIdParam, "id");
};

/** One alert of the calling key: read (with recent deliveries), change, delete. */
export const { GET, POST, PUT, PATCH, DELETE } = route<{ id: string }>({
  GET: withApiKey(async (_req, { url, key, params }) => getAlert(getDb(), key, alertId(url, params.id))),
  PATCH: withApiKey(async (req, { url, key, params }) => {
    const id = alertId(url, params.id);
    const patch = await parseBody(req, updateAlertBody);
    const db = getDb();
    if (patch.webhook_url) await checkWebhookChange(db, key.accountId, patch.webhook_url);
    return updateAlert(db, key, id, patch);
  }),
  DELETE: withApiKey(async (_req, { url, key, params }) => {
    await deleteAlert(getDb(), key, alertId(url, params.id));
    return noContent();
  }),
});
