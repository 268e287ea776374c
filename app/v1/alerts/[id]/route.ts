import { getDb } from "@/db/client";
import { deleteAlert } from "@/lib/alerts/service";
import { patchAlert } from "@/lib/api/alert-patch";
import { route, withApiKey } from "@/lib/api/handler";
import { parseBody, parsePath, parseQuery } from "@/lib/api/params";
import { noContent } from "@/lib/api/response";
import { alertIdParam, updateAlertBody } from "@/lib/api/schemas/alerts";
import { emptyQuery } from "@/lib/api/schemas/common";
import { getAlert } from "@/lib/queries/alerts";

const alertId = (url: URL, id: string) => {
  parseQuery(url, emptyQuery);
  return parsePath(id, alertIdParam, "id");
};

/** One alert of the calling key: read (with recent deliveries), change, delete. */
export const { GET, POST, PUT, PATCH, DELETE } = route<{ id: string }>({
  GET: withApiKey(async (_req, { url, key, params }) => getAlert(getDb(), key, alertId(url, params.id))),
  PATCH: withApiKey(async (req, { url, key, params }) => {
    const id = alertId(url, params.id);
    return patchAlert(getDb(), key, id, await parseBody(req, updateAlertBody));
  }),
  DELETE: withApiKey(async (_req, { url, key, params }) => {
    await deleteAlert(getDb(), key, alertId(url, params.id));
    return noContent();
  }),
});
