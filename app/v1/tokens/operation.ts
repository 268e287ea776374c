import { get, type PathItem } from "@/lib/api/openapi";
import { MARKET_NUMBERS } from "@/lib/api/operation-numbers";
import { tokenList, tokenListQuery } from "@/lib/api/schemas/tokens";

export const operations: PathItem = {
  get: get({
    summary: "List and filter tokens",
    description: `${MARKET_NUMBERS} age_hours is the age at the request's time.`,
    response: tokenList,
    params: { query: tokenListQuery },
  }),
};
