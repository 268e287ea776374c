import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accountContracts, accounts, apiKeys, plans } from "@/db/schema";
import { ApiError, invalidParam } from "@/lib/api/errors";
import { lockAccount } from "./metering";

export type Contract = { maxRatePerMinute: number; maxRatePerDay: number; custom: boolean };
export type KeyLimits = { ratePerMinute: number | null; ratePerDay: number | null };

/** The account's contract: its own row, else the API Tier plan's limits (the keys' defaults). */
export async function contractOf(db: Db, accountId: string): Promise<Contract> {
  const [own] = await db.select().from(accountContracts).where(eq(accountContracts.accountId, accountId));
  if (own) return { maxRatePerMinute: own.maxRatePerMinute, maxRatePerDay: own.maxRatePerDay, custom: true };
  const [plan] = await db.select().from(plans).where(eq(plans.id, "api_tier"));
  return { maxRatePerMinute: plan.ratePerMinute, maxRatePerDay: plan.ratePerDay, custom: false };
}

/**
 * Sets an account's contract (the keys CLI). It cannot go below the API Tier defaults, which
 * keys without limits of their own take; keys set above the new ceiling are lowered to it.
 */
export async function setContract(
  db: Db,
  accountId: string,
  max: { ratePerMinute: number; ratePerDay: number },
): Promise<Contract> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    if (!(await lockAccount(tx, accountId))) throw new ApiError("NOT_FOUND", `No account ${accountId}.`);
    const [plan] = await tx.select().from(plans).where(eq(plans.id, "api_tier"));
    if (max.ratePerMinute < plan.ratePerMinute)
      throw invalidParam(
        "per_minute",
        `A contract allows at least the API Tier default of ${plan.ratePerMinute} per minute.`,
      );
    if (max.ratePerDay < plan.ratePerDay)
      throw invalidParam("per_day", `A contract allows at least the API Tier default of ${plan.ratePerDay} per day.`);
    const values = { maxRatePerMinute: max.ratePerMinute, maxRatePerDay: max.ratePerDay, updatedAt: sql`now()` };
    await tx
      .insert(accountContracts)
      .values({ accountId, ...values })
      .onConflictDoUpdate({ target: accountContracts.accountId, set: values });
    await tx
      .update(apiKeys)
      .set({ ratePerMinute: max.ratePerMinute })
      .where(and(eq(apiKeys.accountId, accountId), gt(apiKeys.ratePerMinute, max.ratePerMinute)));
    await tx
      .update(apiKeys)
      .set({ ratePerDay: max.ratePerDay })
      .where(and(eq(apiKeys.accountId, accountId), gt(apiKeys.ratePerDay, max.ratePerDay)));
    return { maxRatePerMinute: max.ratePerMinute, maxRatePerDay: max.ratePerDay, custom: true };
  });
}

/**
 * Sets a live key's own limits (null: the plan's default; absent: unchanged). API Tier only, and
 * within the account's contract. The account row is locked so a plan change cannot slip in between.
 */
export async function setKeyLimits(
  db: Db,
  accountId: string,
  keyId: string,
  limits: Partial<KeyLimits>,
): Promise<KeyLimits> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    if (!(await lockAccount(tx, accountId))) throw new ApiError("NOT_FOUND", `No account ${accountId}.`);
    const [account] = await tx.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
    if (account.plan !== "api_tier")
      throw new ApiError("FORBIDDEN", "Keys carry limits of their own on the API Tier plan only.");
    const contract = await contractOf(tx, accountId);
    if (limits.ratePerMinute === undefined && limits.ratePerDay === undefined)
      throw invalidParam("body", "Give a per-minute or a per-day limit.");
    if (limits.ratePerMinute != null && limits.ratePerMinute > contract.maxRatePerMinute) {
      throw invalidParam(
        "rate_per_minute",
        `rate_per_minute: at most ${contract.maxRatePerMinute} under the account's contract.`,
      );
    }
    if (limits.ratePerDay != null && limits.ratePerDay > contract.maxRatePerDay) {
      throw invalidParam(
        "rate_per_day",
        `rate_per_day: at most ${contract.maxRatePerDay} under the account's contract.`,
      );
    }
    const rows = await tx
      .update(apiKeys)
      .set(limits)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
      .returning({ ratePerMinute: apiKeys.ratePerMinute, ratePerDay: apiKeys.ratePerDay });
    if (rows.length === 0) throw new ApiError("NOT_FOUND", "Key not found.");
    return rows[0];
  });
}

/** The account's live keys with the limits they carry of their own (null: the plan's default). */
export async function keysWithLimits(db: Db, accountId: string) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      ratePerMinute: apiKeys.ratePerMinute,
      ratePerDay: apiKeys.ratePerDay,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .orderBy(apiKeys.createdAt, apiKeys.id);
}
