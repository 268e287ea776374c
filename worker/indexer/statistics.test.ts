import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { createTestDatabase, type TestDatabase } from "@/worker/test/db";
import { ChainStatistics } from "./statistics";

describe("the chain tables' statistics through a backfill", () => {
  let db: TestDatabase;
  let sql: Sql;

  beforeAll(async () => {
    db = await createTestDatabase("stats_test");
    sql = connect(db.url, { max: 1 });
  });
  afterAll(async () => {
    await sql.end();
    await db.drop();
  });

  /** The planner's row count of a table: -1 until it is first analyzed (or vacuumed). */
  const plannerRows = async (table: string) =>
    Number((await sql<{ n: number }[]>`select reltuples as n from pg_class where oid = ${table}::regclass`)[0].n);

  it("analyzes after 10,000 events, then each time the events written have doubled", async () => {
    const stats = new ChainStatistics();
    expect(await plannerRows("events")).toBe(-1);
    await stats.afterWrite(sql, 9_999);
    expect(await plannerRows("events")).toBe(-1);

    await stats.afterWrite(sql, 10_000);
    expect(await plannerRows("events")).toBe(0);
    expect(await plannerRows("balances")).toBe(0);

    await sql`insert into blocks (number, hash, parent_hash, timestamp)
              select n, 'h' || n, 'p' || n, to_timestamp(n) from generate_series(1, 3) n`;
    await stats.afterWrite(sql, 19_999);
    expect(await plannerRows("blocks")).toBe(0);
    await stats.afterWrite(sql, 20_000);
    expect(await plannerRows("blocks")).toBe(3);
  });
});
