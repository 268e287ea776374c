import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { PLANS, type Plan } from "@/lib/domain/vocab";
import { hashKey } from "@/lib/keys/secret";
import { createKey, ensureAccount } from "@/lib/keys/store";

/** A plan's dev account and its key: null once the key was revoked or rotated (never minted again). */
export type DevKey = { plan: Plan; email: string; key: string | null };

/** The dev account of a plan; the dev sign-in accepts it (lib/auth/dev-signin.ts). */
export const devEmail = (plan: Plan) => `dev+${plan}@localhost`;
const devKeyName = (plan: Plan) => `dev ${plan}`;

/**
 * One ready key per plan for local use, on the embedded defaults only (scripts/start.ts), kept
 * in the data folder (mode 600) so a restart shows the same keys. The database holds only their
 * hashes, as for every key. A dev account gets its key once: one revoked or rotated (in the
 * dashboard or the keys CLI) is not minted again.
 */
export async function ensureDevKeys(db: Db, dataDir: string): Promise<DevKey[]> {
  const file = path.join(dataDir, "dev-keys.json");
  const saved: Partial<Record<Plan, string>> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const kept: Partial<Record<Plan, string>> = {};
  const keys: DevKey[] = [];
  for (const plan of PLANS) {
    const email = devEmail(plan);
    const accountId = await ensureAccount(db, email, plan);
    const made = await db
      .select({ hash: apiKeys.hash, revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.name, devKeyName(plan))));
    const secret = saved[plan];
    let key: string | null = null;
    if (secret && made.some((k) => k.hash === hashKey(secret) && !k.revokedAt)) key = secret;
    else if (made.length === 0) key = (await createKey(db, accountId, devKeyName(plan))).key;
    if (key) kept[plan] = key;
    keys.push({ plan, email, key });
  }
  writeFileSync(file, JSON.stringify(kept, null, 2), { mode: 0o600 });
  return keys;
}
