import { z } from "zod";
import { getDb } from "@/db/client";
import { parseBody } from "@/lib/api/params";
import { labelSchema } from "@/lib/api/schemas/label";
import { withMeteredAccount } from "@/lib/auth/route";
import { createKey } from "@/lib/keys/store";

const newKey = z.strictObject({ name: labelSchema(100) });

/** Creates a key for the account; the answer is the only place its secret ever appears. */
export const POST = withMeteredAccount(async (req, { account }) => {
  const { name } = await parseBody(req, newKey);
  const { key, id, prefix } = await createKey(getDb(), account.id, name);
  return { key, id, prefix, name };
});
