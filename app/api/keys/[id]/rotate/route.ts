import { getDb } from "@/db/client";
import { ApiError } from "@/lib/api/errors";
import { withMeteredAccount } from "@/lib/auth/route";
import { rotateKey } from "@/lib/keys/store";

/** Replaces a key: a new secret under the same name, the old key revoked in the same transaction. */
export const POST = withMeteredAccount<{ id: string }>(async (_req, { account, params }) => {
  const rotated = await rotateKey(getDb(), params.id, account.id);
  if (!rotated) throw new ApiError("NOT_FOUND", "No such live key.");
  return { key: rotated.key, id: rotated.id, prefix: rotated.prefix, name: rotated.name };
});
