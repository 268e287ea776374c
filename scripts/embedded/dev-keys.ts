import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { PLANS, type Plan } from "@/lib/domain/vocab";
import { hashKey } from "@/lib/keys/secret";
import { createKey, ensureAccount } from "@/lib/keys/store";

type DevKeys = Record<Plan, string>;

/**
 * One ready key per plan for local use, kept in the data folder (mode 600) so a restart shows
 * the same keys. The database holds only their hashes, as for every key.
 */
export async function ensureDevKeys(db: Db, dataDir: string): Promise<DevKeys> {
  const file = path.join(dataDir, "dev-keys.json");
  const saved: Partial<DevKeys> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const keys = {} as DevKeys;
  for (const plan of PLANS) {
    const secret = saved[plan];
    const live =
      secret &&
      (await db
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(and(eq(apiKeys.hash, hashKey(secret)), isNull(apiKeys.revokedAt))));
    if (secret && live?.length) {
      keys[plan] = secret;
      continue;
    }
    const accountId = await ensureAccount(db, `dev+${plan}@localhost`, plan);
    keys[plan] = (await createKey(db, accountId, `dev ${plan}`)).key;
  }
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}
