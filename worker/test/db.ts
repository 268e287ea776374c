import postgres from "postgres";
import { runMigrations } from "@/db/migrate";

/** Postgres the worker tests use; each test file creates and drops its own database. */
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export type TestDatabase = { url: string; drop: () => Promise<void> };

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `idx_test_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  await runMigrations(url);
  return {
    url,
    drop: async () => {
      // KEEP_TEST_DB=1 leaves the database for inspection.
      if (!process.env.KEEP_TEST_DB) await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
