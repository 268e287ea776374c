import { z } from "zod";
import { getDb } from "@/db/client";
import { createAlertForKey } from "@/lib/alerts/service";
import { parseBody } from "@/lib/api/params";
import { createAlertBody } from "@/lib/api/schemas/alerts";
import { withMeteredAccount } from "@/lib/auth/route";

/** POST /v1/alerts's body, plus the key the alert belongs to (none: a new key, when the account has none). */
const newAlert = z.object({ key_id: z.string().optional(), alert: createAlertBody });

export const POST = withMeteredAccount(async (req, { account }) => {
  const { key_id, alert } = await parseBody(req, newAlert);
  return createAlertForKey(getDb(), account.id, key_id, alert);
});
