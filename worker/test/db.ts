import { runMigrations } from "@/db/migrate";
import { createTestDatabase as createDatabase } from "@/tests/setup/database";

export type TestDatabase = { url: string; drop: () => Promise<void> };

/** A migrated database of the worker tests' own (idx_test_*), dropped by `drop`. */
export async function createTestDatabase(prefix = "idx_test"): Promise<TestDatabase> {
  const db = await createDatabase(prefix);
  await runMigrations(db.url);
  return db;
}
