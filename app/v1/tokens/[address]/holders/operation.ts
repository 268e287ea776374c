import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { AS_OF } from "@/lib/api/operation-numbers";
import { holderList, holderListQuery } from "@/lib/api/schemas/market";

export const operations: PathItem = {
  get: get({
    summary: "A token's real holders, largest first (exact total)",
    description: `${AS_OF}: holding_pct is percent of the total supply, reputation_score 0 to 100.`,
    response: holderList,
    params: { path: addressPath, query: holderListQuery },
    errors: [404],
  }),
};
