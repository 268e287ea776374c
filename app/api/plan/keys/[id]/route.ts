import { z } from "zod";
import { getDb } from "@/db/client";
import { parseBody } from "@/lib/api/params";
import { withMeteredAccount } from "@/lib/auth/route";
import { setKeyLimits } from "@/lib/billing/contract";

const limit = z.number().int().min(1).max(2_000_000_000).nullable().optional();
const keyLimits = z.strictObject({ rate_per_minute: limit, rate_per_day: limit });

/**
 * Sets an API Tier key's own limits within the account's contract; null takes the plan's default, absent keeps the
 * current one.
 */
export const PUT = withMeteredAccount<{ id: string }>(async (req, { params, account }) => {
  const body = await parseBody(req, keyLimits);
  const set = await setKeyLimits(getDb(), account.id, params.id, {
    ratePerMinute: body.rate_per_minute,
    ratePerDay: body.rate_per_day,
  });
  return { id: params.id, rate_per_minute: set.ratePerMinute, rate_per_day: set.ratePerDay };
});
