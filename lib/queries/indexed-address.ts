import { sql } from "drizzle-orm";
import { type Db, queryPrepared } from "@/db/client";
import { tokens, wallets } from "@/db/schema";
import { databaseCache } from "@/lib/cache";

/** The kinds of address a dashboard page shows, by the table that indexes them. */
const TABLES = { token: tokens, wallet: wallets } as const;

/** Addresses found indexed, kept: one leaves the index only by a reorg, which the page's own read then finds. */
const foundIn = databaseCache<string, true>({ name: "indexedAddresses", max: 50_000 });

/** Whether `address` (lowercase) is indexed as a token or a wallet: one primary-key probe until found. */
export async function isIndexed(db: Db, kind: keyof typeof TABLES, address: string): Promise<boolean> {
  const found = foundIn(db);
  const key = `${kind}:${address}`;
  if (found.has(key)) return true;
  const table = TABLES[kind];
  const rows = await queryPrepared<{ one: number }>(
    db,
    sql`select 1 as one from ${table} where ${table.address} = ${address}`,
  );
  if (!rows.length) return false;
  found.set(key, true);
  return true;
}
