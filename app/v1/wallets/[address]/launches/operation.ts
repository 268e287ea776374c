import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { MARKET_NUMBERS } from "@/lib/api/operation-numbers";
import { launchList, launchListQuery } from "@/lib/api/schemas/wallets";

export const operations: PathItem = {
  get: get({
    summary:
      "The tokens a wallet created, newest launch first, each with its outcome: trading, liquidity_pulled or " +
      "abandoned (exact total)",
    description:
      `${MARKET_NUMBERS} outcome is judged at that block: no swap in the 24 h ending there makes a token older ` +
      "than that abandoned.",
    response: launchList,
    params: { path: addressPath, query: launchListQuery },
    errors: [404],
  }),
};
