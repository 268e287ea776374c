import { z } from "zod";
import { getDb } from "@/db/client";
import { parseBody } from "@/lib/api/params";
import { withAccount } from "@/lib/auth/route";
import { PLANS, setPlan } from "@/lib/keys/store";

const planChange = z.strictObject({ plan: z.enum(PLANS) });

/** Switches the account's plan. No payment at this stage of the product: the change is direct. */
export const PUT = withAccount(async (req, { account }) => {
  const { plan } = await parseBody(req, planChange);
  await setPlan(getDb(), account.id, plan);
  return { plan };
});
