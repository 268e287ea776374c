import { getDb } from "@/db/client";
import { ApiError } from "@/lib/api/errors";
import { withAccount } from "@/lib/auth/route";
import { revokeKey } from "@/lib/keys/store";

/** Revokes one of the account's keys; the API refuses it from the next request on. */
export const DELETE = withAccount<{ id: string }>(async (_req, { account, params }) => {
  if (!(await revokeKey(getDb(), params.id, account.id))) throw new ApiError("NOT_FOUND", "No such live key.");
  return null;
});
