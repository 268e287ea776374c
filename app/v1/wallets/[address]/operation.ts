import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { AS_OF } from "@/lib/api/operation-numbers";
import { walletProfile } from "@/lib/api/schemas/wallets";

export const operations: PathItem = {
  get: get({
    summary: "Wallet profile",
    description:
      `${AS_OF}: USD at the tokens' current prices; pnl_estimate_usd is realized plus unrealized ` +
      "over every position; reputation_score 0 to 100 (higher is better).",
    response: walletProfile,
    params: { path: addressPath },
    errors: [404],
  }),
};
