import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { walletScore } from "@/lib/api/schemas/scores";

export const operations: PathItem = {
  get: get({
    summary: "Wallet reputation score",
    description:
      "reputation_score and dimensions 0 to 100 (higher is better), win_rate a fraction 0 to 1; " +
      "updated_at is when the worker last scored the wallet.",
    response: walletScore,
    params: { path: addressPath },
    errors: [404],
  }),
};
