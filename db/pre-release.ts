import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Sql } from "./client";

/**
 * The journal's last row after the 18 pre-release migrations (0000_init ..
 * 0017_scores_explain_themselves), which 0000_baseline replaced: a database they built has the
 * baseline's schema (db/upgrade.test.ts builds one from db/test/pre-release-0017.sql and compares).
 */
const PRE_RELEASE = { migrations: 18, lastHash: "a544aa05bf458b3083db52978972d0d527acd28fc756b14133122a0b5c9f1f7b" };

/**
 * Marks the baseline applied on a database the pre-release migrations built, so drizzle goes on
 * from there instead of creating its tables again. Refuses a database stopped at an earlier
 * pre-release migration: it cannot be brought forward any more.
 */
export async function adoptPreReleaseDatabase(sql: Sql, migrationsFolder: string) {
  const [{ journal }] = await sql<
    { journal: boolean }[]
  >`select to_regclass('drizzle.__drizzle_migrations') is not null as journal`;
  if (!journal) return;
  const rows = await sql<
    { hash: string; created_at: string }[]
  >`select hash, created_at::text from drizzle.__drizzle_migrations order by created_at`;
  const [baseline] = readMigrationFiles({ migrationsFolder });
  if (rows.length === 0 || rows.some((r) => Number(r.created_at) >= baseline.folderMillis)) return;
  if (rows.length !== PRE_RELEASE.migrations || rows.at(-1)!.hash !== PRE_RELEASE.lastHash) {
    throw new Error(
      `the database was migrated by an older pre-release version ` +
        `(${rows.length} of its ${PRE_RELEASE.migrations} migrations); ` +
        "recreate it (delete the data directory), or migrate it with that version's last release first",
    );
  }
  await sql`insert into drizzle.__drizzle_migrations (hash, created_at)
            values (${baseline.hash}, ${baseline.folderMillis})`;
}
