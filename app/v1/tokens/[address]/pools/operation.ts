import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { AS_OF } from "@/lib/api/operation-numbers";
import { poolList, poolListQuery } from "@/lib/api/schemas/market";

export const operations: PathItem = {
  get: get({
    summary: "The pools that trade a token, deepest first (exact total)",
    description: `${AS_OF}: liquidity and volume in USD, over the 24 h ending at that block.`,
    response: poolList,
    params: { path: addressPath, query: poolListQuery },
    errors: [404],
  }),
};
