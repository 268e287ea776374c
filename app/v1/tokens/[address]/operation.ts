import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { MARKET_NUMBERS } from "@/lib/api/operation-numbers";
import { tokenProfile } from "@/lib/api/schemas/tokens";

export const operations: PathItem = {
  get: get({
    summary: "Token profile",
    description:
      `${MARKET_NUMBERS} top_holders' and creator_holding's holding_pct are percent of the total supply; ` +
      "creator_holding's quantity is in whole tokens; security as GET /tokens/{address}/security.",
    response: tokenProfile,
    params: { path: addressPath },
    errors: [404],
  }),
};
