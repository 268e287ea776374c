import { sql } from "drizzle-orm";
import { names } from "@/db/bulk";
import type { Db } from "@/db/client";
import { accounts } from "@/db/schema";
import { newId } from "@/lib/keys/secret";

/**
 * The billing account of a signed-in user, created on first sign-in on the Free plan. An
 * account made earlier for the same email (the keys CLI) is adopted rather than duplicated.
 */
const proposedUserId = sql.raw(`excluded.${names(accounts).userId}`);

export async function linkAccount(db: Db, userId: string, email: string | null): Promise<string> {
  const [row] = await db
    .insert(accounts)
    .values({ id: newId("acct"), email, userId })
    .onConflictDoUpdate({
      target: accounts.email,
      set: { userId: sql`coalesce(${accounts.userId}, ${proposedUserId})` },
    })
    .returning({ id: accounts.id, userId: accounts.userId });
  if (row.userId !== userId) throw new Error("The account of this email belongs to another user.");
  return row.id;
}
