import { count } from "drizzle-orm";
import type { Db } from "@/db/client";
import { quarantinedEntities } from "@/db/schema";

/** How many entities the indexer stopped following (db/schema/quarantine.ts). */
export async function quarantineCount(db: Db): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(quarantinedEntities);
  return n;
}
