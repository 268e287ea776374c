import { errorResponse, json, type PathItem } from "@/lib/api/openapi";
import { status } from "@/lib/api/schemas/status";

export const operations: PathItem = {
  get: {
    summary: "Data freshness (no key)",
    description:
      "Blocks are block numbers; lag_seconds is the time from the indexed block to the chain's head, in seconds.",
    security: [],
    responses: { 200: json(status, "OK"), 400: errorResponse(400), 500: errorResponse(500) },
  },
};
