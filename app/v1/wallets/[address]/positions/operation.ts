import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { AS_OF } from "@/lib/api/operation-numbers";
import { positionList, positionListQuery } from "@/lib/api/schemas/wallets";

export const operations: PathItem = {
  get: get({
    summary: "A wallet's positions: open ones by value, then closed ones by realized PnL (exact total)",
    description: `${AS_OF}: quantities in whole tokens, USD at current prices, average cost.`,
    response: positionList,
    params: { path: addressPath, query: positionListQuery },
    errors: [404],
  }),
};
