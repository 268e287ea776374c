import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { connect, createDb, type Sql } from "./client";
import { adoptPreReleaseDatabase } from "./pre-release";

const here = path.dirname(fileURLToPath(import.meta.url));
export const migrationsFolder = path.join(here, "migrations");
const functionsFolder = path.join(here, "functions");

/** Any fixed key: the session advisory lock that lets one process migrate at a time. */
const MIGRATE_LOCK = 7_260_001;

/**
 * Brings a database to the current schema; safe to call from several processes at once. In
 * order: a database built by the pre-release migrations is adopted onto the baseline, drizzle
 * applies pending migrations (db/migrations), then every function file (db/functions) whose text
 * changed is applied.
 */
export async function runMigrations(url?: string): Promise<void> {
  // Backfills in migrations may outlast the per-request statement timeout.
  const sql = connect(url, { max: 1, connection: { application_name: "onchain-intel-migrate", statement_timeout: 0 } });
  try {
    // Held by this one connection's session until it ends.
    await sql`select pg_advisory_lock(${MIGRATE_LOCK})`;
    await adoptPreReleaseDatabase(sql, migrationsFolder);
    await migrate(createDb(sql), { migrationsFolder });
    await applyFunctionFiles(sql);
  } finally {
    await sql.end();
  }
}

/**
 * The functions and triggers, one file per area, each holding the single live definition
 * (CREATE OR REPLACE). Like repeatable migrations: a file runs when its text differs from the
 * last text applied, recorded beside drizzle's journal.
 */
async function applyFunctionFiles(sql: Sql) {
  await sql`create table if not exists drizzle.applied_function_files (file text primary key, hash text not null)`;
  const applied = new Map(
    (await sql<{ file: string; hash: string }[]>`select file, hash from drizzle.applied_function_files`).map((r) => [
      r.file,
      r.hash,
    ]),
  );
  for (const file of readdirSync(functionsFolder)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    const text = readFileSync(path.join(functionsFolder, file), "utf8");
    const hash = createHash("sha256").update(text).digest("hex");
    if (applied.get(file) === hash) continue;
    await sql.begin(async (tx) => {
      await tx.unsafe(text).simple();
      await tx`insert into drizzle.applied_function_files ${tx({ file, hash })}
               on conflict (file) do update set hash = excluded.hash`;
    });
  }
}
