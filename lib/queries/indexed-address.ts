import { sql } from "drizzle-orm";
import { type Db, queryPrepared } from "@/db/client";
import { tokens, wallets } from "@/db/schema";

/** The kinds of address a dashboard page shows, by the table that indexes them. */
const TABLES = { token: tokens, wallet: wallets } as const;

/** Whether `address` (lowercase) is indexed as a token or a wallet: one primary-key probe. */
export async function isIndexed(db: Db, kind: keyof typeof TABLES, address: string): Promise<boolean> {
  const table = TABLES[kind];
  const rows = await queryPrepared<{ one: number }>(
    db,
    sql`select 1 as one from ${table} where ${table.address} = ${address}`,
  );
  return rows.length > 0;
}
