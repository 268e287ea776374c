import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { tokenScore } from "@/lib/api/schemas/scores";

export const operations: PathItem = {
  get: get({
    summary: "Token risk score",
    description:
      "risk_score and dimensions 0 to 100 (higher is riskier); evidence shares are fractions 0 to 1; " +
      "updated_at is when the worker last scored the token.",
    response: tokenScore,
    params: { path: addressPath },
    errors: [404],
  }),
};
