import { get, json, type PathItem, responses } from "@/lib/api/openapi";
import { alertList, alertListQuery, createAlertBody, createdAlert } from "@/lib/api/schemas/alerts";

export const operations: PathItem = {
  get: get({ summary: "The key's alerts", response: alertList, params: { query: alertListQuery } }),
  post: {
    summary: "Create an alert: a token filter (no kind: the spec's), or a wallet, price or smart-money alert",
    description:
      "A token alert (no kind) takes GET /tokens' filter units: USD, percent, hours, risk score 0 to 100; it " +
      "fires when a token newly matches at an indexed block. kind=price: a USD level or a percent move over " +
      "5m, 1h or 24h; kind=wallet and kind=smart_money fire on the indexed events of a block batch.",
    requestBody: { content: { "application/json": { schema: createAlertBody } } },
    responses: responses({ 201: json(createdAlert, "Created") }, [403, 413]),
  },
};
