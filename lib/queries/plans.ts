import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, plans } from "@/db/schema";
import { NotFound } from "@/lib/domain/errors";

/** The plans and their limits, as the plans table states them (the one source of limits). */
export async function listPlans(db: Db) {
  return db.select().from(plans).orderBy(asc(plans.ratePerDay));
}
export type PlanLimits = Awaited<ReturnType<typeof listPlans>>[number];

/**
 * The limits of an account's plan. `lock` takes the account's row for the rest of the
 * transaction, so that checks of a count against a limit stay exact when requests race.
 */
export async function planOfAccount(db: Db, accountId: string, lock = false): Promise<PlanLimits> {
  const query = db
    .select({ plan: plans })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.plan))
    .where(eq(accounts.id, accountId));
  const [row] = await (lock ? query.for("update", { of: accounts }) : query);
  if (!row) throw new NotFound("No such account.");
  return row.plan;
}
