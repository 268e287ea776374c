import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, alerts, apiKeys } from "@/db/schema";
import { ApiError } from "@/lib/api/errors";
import type { Plan } from "@/lib/domain/vocab";
import { planOfAccount } from "@/lib/queries/plans";
import { displayPrefix, generateKeySecret, hashKey, newId } from "./secret";

/** The account of an email, created on first use. */
export async function ensureAccount(db: Db, email: string | null, plan: Plan = "free"): Promise<string> {
  if (email) {
    const [existing] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
    if (existing) return existing.id;
  }
  const [row] = await db
    .insert(accounts)
    .values({ id: newId("acct"), email, plan })
    .returning({ id: accounts.id });
  return row.id;
}

export type CreatedKey = { key: string; id: string; prefix: string; accountId: string; plan: Plan; name: string };

/**
 * Creates a key, within the plan's cap on live keys (403 past it); the secret exists only in the
 * return value, never in the database or a log.
 */
export async function createKey(db: Db, accountId: string, name = "default"): Promise<CreatedKey> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    // The account's row stays locked until commit: racing creations count one after another.
    const plan = await planOfAccount(t, accountId, true);
    const [{ live }] = await t
      .select({ live: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
    if (live >= plan.maxKeys) {
      throw new ApiError("FORBIDDEN", `The ${plan.label} plan allows ${plan.maxKeys} live API keys; revoke one first.`);
    }
    const secret = generateKeySecret();
    const [row] = await t
      .insert(apiKeys)
      .values({ id: newId("key"), accountId, name, prefix: displayPrefix(secret), hash: hashKey(secret) })
      .returning();
    return { key: secret, id: row.id, prefix: row.prefix, accountId, plan: plan.id as Plan, name: row.name };
  });
}

export async function listKeys(db: Db, accountId?: string) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      accountId: apiKeys.accountId,
      email: accounts.email,
      plan: accounts.plan,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(accountId ? eq(apiKeys.accountId, accountId) : undefined)
    .orderBy(desc(apiKeys.createdAt));
}

/** Revokes a key (of the account, when given); false when there was no such live key. */
export async function revokeKey(db: Db, keyId: string, accountId?: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt), accountId ? eq(apiKeys.accountId, accountId) : undefined))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/**
 * Rotation: a new key with the same name and account, the old one revoked, and its alerts moved
 * to the new key (a revoked key's alerts stop firing), atomically.
 */
export async function rotateKey(db: Db, keyId: string, accountId: string): Promise<CreatedKey | null> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [old] = await t
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)));
    if (!old || old.revokedAt || !(await revokeKey(t, keyId, accountId))) return null;
    const created = await createKey(t, accountId, old.name);
    await t.update(alerts).set({ keyId: created.id }).where(eq(alerts.keyId, keyId));
    return created;
  });
}

export async function setPlan(db: Db, accountId: string, plan: Plan): Promise<boolean> {
  const rows = await db.update(accounts).set({ plan }).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
  return rows.length > 0;
}

export async function accountOfKey(db: Db, keyId: string): Promise<string | null> {
  const [row] = await db.select({ accountId: apiKeys.accountId }).from(apiKeys).where(eq(apiKeys.id, keyId));
  return row?.accountId ?? null;
}
