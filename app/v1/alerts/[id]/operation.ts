import { get, idPath, json, type PathItem, responses } from "@/lib/api/openapi";
import { alert, alertDetail, updateAlertBody } from "@/lib/api/schemas/alerts";

export const operations: PathItem = {
  get: get({
    summary: "An alert with its recent deliveries",
    response: alertDetail,
    params: { path: idPath },
    errors: [404],
  }),
  patch: {
    summary: "Change an alert (name, conditions in its kind or a new kind, channel, status)",
    requestParams: { path: idPath },
    requestBody: { content: { "application/json": { schema: updateAlertBody } } },
    responses: responses({ 200: json(alert, "OK") }, [403, 404, 413]),
  },
  delete: {
    summary: "Delete an alert",
    requestParams: { path: idPath },
    responses: responses({ 204: { description: "Deleted" } }, [404]),
  },
};
