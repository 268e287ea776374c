import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { connect, createDb } from "./client";

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Applies pending migrations; safe to call from several processes (drizzle takes a lock). */
export async function runMigrations(url?: string): Promise<void> {
  // Backfills in migrations may outlast the per-request statement timeout.
  const sql = connect(url, { max: 1, connection: { application_name: "onchain-intel-migrate", statement_timeout: 0 } });
  try {
    await migrate(createDb(sql), { migrationsFolder });
  } finally {
    await sql.end();
  }
}
