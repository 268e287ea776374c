import { asc } from "drizzle-orm";
import type { Db } from "@/db/client";
import { plans } from "@/db/schema";

/** The plans and their limits, as the plans table states them (the one source of limits). */
export async function listPlans(db: Db) {
  return db.select().from(plans).orderBy(asc(plans.ratePerDay));
}
export type PlanLimits = Awaited<ReturnType<typeof listPlans>>[number];
