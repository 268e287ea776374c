import { getDb } from "@/db/client";
import { createAlert } from "@/lib/alerts/service";
import { route, withApiKey } from "@/lib/api/handler";
import { parseBody, parseQuery } from "@/lib/api/params";
import { created } from "@/lib/api/response";
import { alertListQuery, createAlertBody } from "@/lib/api/schemas/alerts";
import { emptyQuery } from "@/lib/api/schemas/common";
import { listAlerts } from "@/lib/queries/alerts";

/** Alerts of the calling key: create, and list (active by default). */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(async (_req, { url, key }) => {
    const q = parseQuery(url, alertListQuery);
    return { ...(await listAlerts(getDb(), key, q)), page: q.page, limit: q.limit };
  }),
  POST: withApiKey(async (req, { url, key }) => {
    parseQuery(url, emptyQuery);
    return created(await createAlert(getDb(), key, await parseBody(req, createAlertBody)));
  }),
});
