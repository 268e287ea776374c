import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { type Column, insertRows } from "@/worker/indexer/sql";
import { createTestDatabase, type TestDatabase } from "./db";

/** Bulk inserts round-trip every value, through COPY (large batches) and INSERT … unnest alike. */
let db: TestDatabase;
let sql: Sql;

type Row = { n: number; big: bigint; s: string | null; at: string; x: number };
const columns: Column<Row>[] = [
  ["n", "int8", (r) => r.n],
  ["big", "numeric", (r) => r.big],
  ["s", "text", (r) => r.s],
  ["at", "timestamptz", (r) => r.at],
  ["x", "float8", (r) => r.x],
];
const tricky = ["tab\there", "line\nbreak", "back\\slash", "cr\rx", "\\N", "", null, "quote\"'"];

describe("insertRows", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 2 });
    await sql`create table bulk (n int8, big numeric(78,0), s text, at timestamptz, x float8)`;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  for (const count of [10, 5_000]) {
    it(`round-trips ${count} rows`, async () => {
      await sql`truncate bulk`;
      const rows: Row[] = Array.from({ length: count }, (_, i) => ({
        n: i,
        big: 2n ** 200n + BigInt(i),
        s: tricky[i % tricky.length],
        at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
        x: i / 7,
      }));
      await sql.begin((tx) => insertRows(tx, "bulk", columns, rows));
      const back = await sql<{ n: string; big: string; s: string | null; at: string; x: number }[]>`
        select n::text, big::text, s, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, x from bulk order by bulk.n`;
      expect(back.map((r) => [Number(r.n), BigInt(r.big), r.s, r.at, r.x])).toEqual(rows.map((r) => [r.n, r.big, r.s, r.at, r.x]));
    });
  }
});
