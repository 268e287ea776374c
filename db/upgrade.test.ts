import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "@/db/migrate";
import { createTestDatabase } from "@/tests/setup/database";
import { describeSchema } from "@/tests/setup/schema";

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

const preRelease = readFileSync(path.join(import.meta.dirname, "test/pre-release-0017.sql"), "utf8");

/**
 * The squash of the pre-release migrations into 0000_baseline: a database they built (every
 * existing `npm start` data directory) upgrades in place to the schema a fresh database gets,
 * keeping its rows, and the runner refuses one stopped at an earlier pre-release migration.
 */
describe("upgrade from the pre-release migrations", () => {
  let fresh: TestDatabase;
  let old: TestDatabase;
  let sql: postgres.Sql;

  beforeAll(async () => {
    [fresh, old] = await Promise.all([createTestDatabase("oci_baseline"), createTestDatabase("oci_pre_release")]);
    await runMigrations(fresh.url);
    const load = postgres(old.url, { max: 1, onnotice: () => {} });
    await load.unsafe(preRelease).simple();
    await load.end();
    sql = postgres(old.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
    await Promise.all([fresh?.drop(), old?.drop()]);
  });

  it("keeps the rows and ends with the baseline's schema, functions and triggers", async () => {
    await sql`insert into accounts (id, email, plan) values ('acc1', 'a@example.com', 'pro')`;
    await sql`insert into api_keys (id, account_id, name, prefix, hash)
              values ('key1', 'acc1', 'k', 'oci_live_abc', 'h1')`;
    await sql`insert into wallet_funding (wallet, funder, value, block_number, tx_hash)
              values ('0xw', '0xf', 10, 5, '0xh')`;
    await sql`
      insert into events (id, type, wallet_address, token_address, block_number, log_index, tx_hash, timestamp)
      values (500000, 'swap', '0xw', '0xt', 5, 0, '0xh', now())`;

    await runMigrations(old.url);

    const baseline = await describeSchema(fresh.url);
    expect(baseline.tables).toContain("rate_limit_windows u");
    expect(baseline.triggers).toHaveLength(14);
    expect(baseline.plans).toHaveLength(3);
    expect(await describeSchema(old.url)).toEqual(baseline);
    expect(await sql`select id, plan from accounts`).toEqual([{ id: "acc1", plan: "pro" }]);
    expect(await sql`select wallet, funder from wallet_funding`).toEqual([{ wallet: "0xw", funder: "0xf" }]);
    const [meter] = await sql`select key_id, allowed, rate_limit from api_authorize('h1')`;
    expect(meter).toEqual({ key_id: "key1", allowed: true, rate_limit: 60 });
    await sql`
      insert into events (id, type, wallet_address, token_address, block_number, log_index, tx_hash, timestamp)
      values (600000, 'transfer', '0xw', '0xt', 6, 0, '0xh', now())`;
    expect(await sql`select scope, count::int from event_counts order by scope`).toEqual([
      { scope: "all", count: 2 },
      { scope: "token:0xt", count: 2 },
      { scope: "type:swap", count: 1 },
      { scope: "type:transfer", count: 1 },
      { scope: "wallet:0xw", count: 2 },
    ]);
    // A second run finds nothing to do.
    await runMigrations(old.url);
    expect(await describeSchema(old.url)).toEqual(baseline);
  });

  it("refuses a database stopped at an earlier pre-release migration", async () => {
    const early = await createTestDatabase("oci_pre_release_early");
    const s = postgres(early.url, { max: 1, onnotice: () => {} });
    try {
      await s.unsafe(preRelease).simple();
      await s`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`;
      await expect(runMigrations(early.url)).rejects.toThrow(/older pre-release version \(17 of its 18 migrations\)/);
    } finally {
      await s.end();
      await early.drop();
    }
  });
});
