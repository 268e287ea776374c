import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { MARKET_NUMBERS } from "@/lib/api/operation-numbers";
import { tokenProfile } from "@/lib/api/schemas/tokens";

export const operations: PathItem = {
  get: get({
    summary: "Token profile",
    description: `${MARKET_NUMBERS} top_holders' holding_pct is percent of the total supply.`,
    response: tokenProfile,
    params: { path: addressPath },
    errors: [404],
  }),
};
