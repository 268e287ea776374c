import { count, desc } from "drizzle-orm";
import type { Db } from "@/db/client";
import { quarantinedEntities } from "@/db/schema";

/** An entity the indexer stopped following (db/schema/quarantine.ts), as the API shows it. */
export type QuarantinedEntity = {
  kind: "token" | "pool" | "log";
  /** For a log: `<tx hash>:<log index>`. */
  address: string;
  reason: string;
  block: number;
  /** The block's time (chain time), ISO 8601. */
  first_seen_at: string;
};

export type QuarantineSummary = { count: number; latest: QuarantinedEntity[] };

/** How many entities are in quarantine. */
export async function quarantineCount(db: Db): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(quarantinedEntities);
  return n;
}

/** How many entities are in quarantine, and the `limit` most recent (highest block first). */
export async function quarantineSummary(db: Db, limit = 10): Promise<QuarantineSummary> {
  const [n, rows] = await Promise.all([
    quarantineCount(db),
    db
      .select()
      .from(quarantinedEntities)
      .orderBy(desc(quarantinedEntities.block), quarantinedEntities.kind, quarantinedEntities.address)
      .limit(limit),
  ]);
  return {
    count: n,
    latest: rows.map((r) => ({
      kind: r.kind as QuarantinedEntity["kind"],
      address: r.address,
      reason: r.reason,
      block: r.block,
      first_seen_at: r.firstSeenAt.toISOString(),
    })),
  };
}
