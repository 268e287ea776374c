import { get, type PathItem } from "@/lib/api/openapi";
import { AS_OF } from "@/lib/api/operation-numbers";
import { searchQuery, searchResults } from "@/lib/api/schemas/search";

export const operations: PathItem = {
  get: get({
    summary:
      "Tokens by the start of their symbol, name or address, and wallets by the start of their address: tokens " +
      "first (an exact symbol or address match, then by liquidity and 24 h volume), then wallets by trade count",
    description: `${AS_OF}: a token's price, liquidity and 24 h volume in USD, as on the token.`,
    response: searchResults,
    params: { query: searchQuery },
  }),
};
