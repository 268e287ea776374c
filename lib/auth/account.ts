import { eq } from "drizzle-orm";
import { redirect } from "next/navigation";
import { cache } from "react";
import { type Db, getDb } from "@/db/client";
import { accounts, plans } from "@/db/schema";
import type { Plan } from "@/lib/domain/vocab";
import { auth } from "./index";
import { linkAccount } from "./link-account";

export type CurrentAccount = {
  id: string;
  /** The signed-in user the account belongs to. */
  userId: string;
  email: string | null;
  plan: Plan;
  planLabel: string;
};

async function accountOfUser(db: Db, userId: string): Promise<CurrentAccount | undefined> {
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email, plan: accounts.plan, planLabel: plans.label })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.plan))
    .where(eq(accounts.userId, userId));
  return row && { ...row, userId };
}

/** The signed-in user's account, or null; one lookup per request however many callers. */
export const currentAccount = cache(async (): Promise<CurrentAccount | null> => {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) return null;
  const db = getDb();
  const existing = await accountOfUser(db, userId);
  if (existing) return existing;
  // Signed in before the account row existed (a failed first sign-in event): create it now.
  await linkAccount(db, userId, session.user?.email ?? null);
  return (await accountOfUser(db, userId)) ?? null;
});

const signInPath = (returnTo: string) => `/signin?callbackUrl=${encodeURIComponent(returnTo)}`;

/** For pages that need an account: the account, or a redirect to sign-in and back. */
export async function requireAccount(returnTo: string): Promise<CurrentAccount> {
  const account = await currentAccount();
  if (!account) redirect(signInPath(returnTo));
  return account;
}
