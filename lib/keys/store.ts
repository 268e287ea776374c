import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, alerts, apiKeys, rateLimitWindows, usageDaily } from "@/db/schema";
import { Forbidden } from "@/lib/domain/errors";
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

/** The start of the database's current UTC day, as the daily limits count it. */
const startOfUtcDay = sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`;

/**
 * Creates a key, within the plan's cap on live keys and on keys made per UTC day (rotations
 * included: 403 past either); the secret exists only in the return value, never in the database
 * or a log.
 */
export async function createKey(db: Db, accountId: string, name = "default"): Promise<CreatedKey> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    // The account's row stays locked until commit: racing creations count one after another.
    const plan = await planOfAccount(t, accountId, true);
    const [{ live, today }] = await t
      .select({
        live: sql<number>`count(*) filter (where ${apiKeys.revokedAt} is null)`.mapWith(Number),
        today: sql<number>`count(*) filter (where ${apiKeys.createdAt} >= ${startOfUtcDay})`.mapWith(Number),
      })
      .from(apiKeys)
      .where(eq(apiKeys.accountId, accountId));
    if (live >= plan.maxKeys) {
      throw new Forbidden(`The ${plan.label} plan allows ${plan.maxKeys} live API keys; revoke one first.`);
    }
    if (today >= plan.keysPerDay) {
      throw new Forbidden(
        `The ${plan.label} plan allows ${plan.keysPerDay} new API keys a day, rotations included; ` +
          "try again after 00:00 UTC.",
      );
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
      disabledAt: apiKeys.disabledAt,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(accountId ? eq(apiKeys.accountId, accountId) : undefined)
    .orderBy(desc(apiKeys.createdAt));
}

/**
 * Of an account's live keys, the oldest its plan allows (`max_keys`) work and the newer ones are
 * disabled, never revoked: after a downgrade they wait for an upgrade, or for older keys to be
 * revoked, and come back then. The caller holds the account's row (planOfAccount with `lock`).
 */
export async function applyKeyCap(tx: Db, accountId: string): Promise<{ disabled: number; enabled: number }> {
  const plan = await planOfAccount(tx, accountId);
  const live = await tx
    .select({ id: apiKeys.id, disabledAt: apiKeys.disabledAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .orderBy(apiKeys.createdAt, apiKeys.id);
  const disable = live.slice(plan.maxKeys).filter((k) => !k.disabledAt);
  const enable = live.slice(0, plan.maxKeys).filter((k) => k.disabledAt);
  const ids = (keys: typeof live) =>
    inArray(
      apiKeys.id,
      keys.map((k) => k.id),
    );
  if (disable.length) await tx.update(apiKeys).set({ disabledAt: sql`now()` }).where(ids(disable));
  if (enable.length) await tx.update(apiKeys).set({ disabledAt: null }).where(ids(enable));
  return { disabled: disable.length, enabled: enable.length };
}

/**
 * Revokes a key (of the account, when given); false when there was no such live key. A key its
 * account's cap disabled takes the revoked one's place.
 */
export async function revokeKey(db: Db, keyId: string, accountId?: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const owner = accountId ?? (await accountOfKey(t, keyId));
    if (!owner) return false;
    // The account first, as every change of its keys takes it: a plan change cannot interleave.
    await planOfAccount(t, owner, true);
    const rows = await t
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt), eq(apiKeys.accountId, owner)))
      .returning({ id: apiKeys.id });
    if (rows.length === 0) return false;
    await applyKeyCap(t, owner);
    return true;
  });
}

/**
 * Rotation: a new key with the same name, account and own limits, the old one revoked, its
 * alerts moved to the new key (a revoked key's alerts stop firing), atomically. The new key takes
 * over the old one's count of today and its minute window, so a rotation resets no limit.
 */
export async function rotateKey(db: Db, keyId: string, accountId: string): Promise<CreatedKey | null> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [old] = await t
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)));
    if (!old || old.revokedAt) return null;
    await planOfAccount(t, accountId, true);
    // Its meter rows before its key row, in the order a request of the key locks them (its
    // meter, then its last use: db/functions/metering.sql), so the two never wait on each other.
    const today = and(eq(usageDaily.keyId, keyId), sql`${usageDaily.day} = (now() at time zone 'UTC')::date`);
    await t.select({ day: usageDaily.day }).from(usageDaily).where(today).for("update");
    await t
      .select({ second: rateLimitWindows.second })
      .from(rateLimitWindows)
      .where(eq(rateLimitWindows.keyId, keyId))
      .for("update");
    if (!(await revokeKey(t, keyId, accountId))) return null;
    const created = await createKey(t, accountId, old.name);
    await t
      .update(apiKeys)
      .set({ ratePerMinute: old.ratePerMinute, ratePerDay: old.ratePerDay })
      .where(eq(apiKeys.id, created.id));
    await t.update(usageDaily).set({ keyId: created.id }).where(today);
    await t.update(rateLimitWindows).set({ keyId: created.id }).where(eq(rateLimitWindows.keyId, keyId));
    await t.update(alerts).set({ keyId: created.id }).where(eq(alerts.keyId, keyId));
    return created;
  });
}

export async function accountOfKey(db: Db, keyId: string): Promise<string | null> {
  const [row] = await db.select({ accountId: apiKeys.accountId }).from(apiKeys).where(eq(apiKeys.id, keyId));
  return row?.accountId ?? null;
}
