import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { tokenSecurity } from "@/lib/api/schemas/security";

export const operations: PathItem = {
  get: get({
    summary:
      "Can the token be sold? Its buy and sell tax and honeypot verdict from a simulated trade, its owner, " +
      "what its code can do, and who holds its liquidity, each check with the block it ran at",
    description:
      "Taxes and liquidity shares in percent; each check's block and checked_at say when the worker ran it " +
      "(the checks follow the indexed block by a pass of the worker, and a staleness bound of 300 blocks).",
    response: tokenSecurity,
    params: { path: addressPath },
    errors: [404],
  }),
};
