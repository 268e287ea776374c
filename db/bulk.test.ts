import { bigint, doublePrecision, integer, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { createTestDatabase, type TestDatabase } from "@/worker/test/db";
import { concurrently, insertBatched, insertRows, insertSql, names, pipelined, updateRows, updateSql } from "./bulk";

/**
 * A table of every kind of column the worker writes; property names become snake_case column names, or take the
 * name given.
 */
const bulk = pgTable("bulk", {
  n: bigint({ mode: "number" }).primaryKey(),
  big: numeric({ precision: 78, scale: 0 }).notNull(),
  label: text("s"),
  at: timestamp({ withTimezone: true, mode: "date" }),
  x: doublePrecision(),
  rowCount: integer().notNull().default(0),
  tags: text().array(),
  doc: jsonb(),
});

const tricky = ["tab\there", "line\nbreak", "back\\slash", "cr\rx", "\\N", "", null, "quote\"'", "{a,b}", "comma,NULL"];

type Back = {
  n: string;
  big: string;
  s: string | null;
  at: string | null;
  x: number | null;
  count: number;
  tags: string[] | null;
  doc: unknown;
};
const readBack = (sql: Sql) =>
  sql<Back[]>`select n::text, big::text, s, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, x,
           row_count as count, tags, doc
      from bulk order by bulk.n`;

/**
 * Bulk writes round-trip every value, through COPY (large batches) and INSERT … unnest alike, and build their
 * conflict and update clauses from the table.
 */
describe("db/bulk", { timeout: 60_000 }, () => {
  let db: TestDatabase;
  let sql: Sql;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 2 });
    await sql`create table bulk (n int8 primary key, big numeric(78,0) not null, s text, at timestamptz, x float8,
                                 row_count int4 not null default 0, tags text[], doc jsonb)`;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  for (const count of [10, 5_000]) {
    it(`round-trips ${count} rows`, async () => {
      await sql`truncate bulk`;
      const rows = Array.from({ length: count }, (_, i) => ({
        n: i,
        big: 2n ** 200n + BigInt(i),
        label: tricky[i % tricky.length],
        at: i % 2 ? new Date(1_700_000_000_000 + i * 1000) : new Date(1_700_000_000_000 + i * 1000).toISOString(),
        x: i / 7,
        tags: i % 3 ? [tricky[i % tricky.length] ?? "x", 'b"c'] : null,
        doc: { i, s: tricky[i % tricky.length] },
      }));
      await sql.begin((tx) => insertRows(tx, bulk, rows));
      const back = await readBack(sql);
      expect(back.map((r) => [Number(r.n), BigInt(r.big), r.s, r.at, r.x, r.tags, r.doc])).toEqual(
        rows.map((r) => [r.n, r.big, r.label, new Date(r.at).toISOString(), r.x, r.tags, r.doc]),
      );
    });
  }

  it("upserts on a conflict: the written columns, a column's own expression, or nothing; returns rows", async () => {
    await sql`truncate bulk`;
    await insertRows(sql, bulk, [{ n: 1, big: "5", label: "a", rowCount: 1 }]);
    const written = await insertRows(
      sql,
      bulk,
      [
        { n: 1, big: "7", label: "b", rowCount: 2 },
        { n: 2, big: "9", label: "c", rowCount: 3 },
      ],
      {
        onConflict: {
          target: ["n"],
          action: "update",
          set: { rowCount: (stored, excluded) => `${stored} + ${excluded}` },
        },
        returning: ["n", "label"],
      },
    );
    expect(written.map((r) => [Number(r.n), r.label]).sort()).toEqual([
      [1, "b"],
      [2, "c"],
    ]);
    const skipped = await insertRows(sql, bulk, [{ n: 2, big: "0", label: "z" }], {
      onConflict: { target: ["n"], action: "nothing" },
      returning: ["n"],
    });
    expect(skipped).toEqual([]);
    expect((await readBack(sql)).map((r) => [r.n, r.big, r.s, r.count])).toEqual([
      ["1", "7", "b", 3],
      ["2", "9", "c", 3],
    ]);
  });

  it("updates matched rows from unnest, with expressions and only where something changes", async () => {
    await sql`truncate bulk`;
    await insertRows(sql, bulk, [
      { n: 1, big: "5", label: "a", rowCount: 1 },
      { n: 2, big: "6", label: "b", rowCount: 1 },
    ]);
    await updateRows(
      sql,
      bulk,
      [
        { n: 1, big: 10n, rowCount: 4 },
        { n: 3, big: 1n, rowCount: 1 },
      ],
      { match: ["n"], set: { rowCount: (stored, given) => `${stored} + ${given}` } },
    );
    const [{ xmin: before }] = await sql<{ xmin: string }[]>`select xmin::text from bulk where n = 2`;
    await updateRows(sql, bulk, [{ n: 2, label: "b" }], { match: ["n"], onlyChanged: true });
    const [{ xmin: after }] = await sql<{ xmin: string }[]>`select xmin::text from bulk where n = 2`;
    expect(after).toBe(before);
    await updateRows(sql, bulk, [{ n: 2, label: "c" }], { match: ["n"], onlyChanged: true });
    expect((await readBack(sql)).map((r) => [r.n, r.big, r.s, r.count])).toEqual([
      ["1", "10", "a", 5],
      ["2", "6", "c", 1],
    ]);
  });

  it("writes rows SQL computes: insert … select with a conflict clause, update … from, only on a change", async () => {
    await sql`truncate bulk`;
    await insertRows(sql, bulk, [{ n: 1, big: "5", label: "a", rowCount: 1 }]);
    const c = names(bulk);
    const upsert = insertSql(
      bulk,
      { n: "v.n", big: "v.n * 10", label: "'new'", rowCount: "1" },
      "from generate_series(1, $1::int) v(n)",
      {
        target: ["n"],
        action: ["big"],
        set: { rowCount: (stored, added) => `${stored} + ${added}` },
        whereChanged: ["big"],
      },
    );
    expect(upsert).toContain(
      `insert into "bulk" as t ("n", "big", "s", "row_count") select v.n, v.n * 10, 'new', 1 from`,
    );
    await sql.unsafe(upsert, [2]);
    const [{ xmin: before }] = await sql<{ xmin: string }[]>`select xmin::text from bulk where n = 1`;
    // Row 1 now has big = 10 = n * 10: it stays as it is; row 2 exists (big 20).
    await sql.unsafe(upsert, [2]);
    const [{ xmin: after }] = await sql<{ xmin: string }[]>`select xmin::text from bulk where n = 1`;
    expect(after).toBe(before);
    expect((await readBack(sql)).map((r) => [r.n, r.big, r.s, r.count])).toEqual([
      ["1", "10", "a", 2],
      ["2", "20", "new", 1],
    ]);
    const relabel = updateSql(
      bulk,
      { label: "v.label" },
      "from (values (1, 'a'), (2, 'b')) v(n, label)",
      `t.${c.n} = v.n`,
      { onlyChanged: true },
    );
    expect(relabel).toBe(
      `update "bulk" t set "s" = v.label from (values (1, 'a'), (2, 'b')) v(n, label) ` +
        `where t."n" = v.n and (t."s") is distinct from (v.label)`,
    );
    const [{ xmin: unchanged }] = await sql<{ xmin: string }[]>`select xmin::text from bulk where n = 1`;
    expect((await sql.unsafe(relabel)).count).toBe(1);
    const [{ xmin: stillUnchanged }] = await sql<{ xmin: string }[]>`select xmin::text from bulk where n = 1`;
    expect(stillUnchanged).toBe(unchanged);
    expect((await readBack(sql)).map((r) => r.s)).toEqual(["a", "b"]);
  });

  it("pipelines a transaction's writes in order, a COPY alone among them; the first error undoes them all", async () => {
    const copied = (from: number) => Array.from({ length: 2_500 }, (_, i) => ({ n: from + i, big: "1" }));
    // Twice: once its statements are prepared, postgres.js sends them without waiting for a description.
    for (const _ of [1, 2]) {
      await sql`truncate bulk`;
      await sql.begin((tx) =>
        pipelined(tx, async (w) => {
          w.statement("insert into bulk (n, big, s) values ($1, 1, 'a')", [1]);
          w.update(bulk, [{ n: 1, label: "b" }], { match: ["n"] });
          // Sent behind writes still in flight, a COPY would stall the connection.
          await w.insert(bulk, copied(100));
          w.statement("update bulk set s = coalesce(s, '') || 'c' where n = $1 or n >= $2", [1, 100]);
          await w.insert(bulk, [{ n: 2, big: "2" }]);
          await w.insert(bulk, copied(10_000));
          // A COPY right behind a COPY, and a statement behind both.
          await w.insert(bulk, copied(20_000));
          w.statement("update bulk set s = 'd' where n >= $1", [20_000]);
        }),
      );
      const back = await readBack(sql);
      expect(back.length).toBe(2 + 3 * 2_500);
      expect(back.filter((r) => r.s === "c").length, "the COPY's rows, before the update").toBe(2_500);
      expect(back.filter((r) => r.s === "d").length, "the last COPY's rows, before the update").toBe(2_500);
      expect([back[0].s, back[1].s]).toEqual(["bc", null]);
    }

    const failingCopy = sql.begin((tx) =>
      pipelined(tx, async (w) => {
        w.statement("update bulk set s = 'e' where n = $1", [1]);
        await w.insert(bulk, copied(10_000));
        w.statement("update bulk set s = 'f' where n = $1", [2]);
      }),
    );
    await expect(failingCopy, "the COPY's own error").rejects.toThrow(/duplicate key/);
    expect((await readBack(sql)).filter((r) => r.s === "e" || r.s === "f")).toEqual([]);

    const failing = sql.begin((tx) =>
      pipelined(tx, async (w) => {
        await w.insert(bulk, [{ n: 3, big: "3" }]);
        await w.insert(bulk, [{ n: 1, big: "1" }]);
        w.update(bulk, [{ n: 3, label: "x" }], { match: ["n"] });
      }),
    );
    await expect(failing, "the failing statement's own error").rejects.toThrow(/duplicate key/);
    expect((await readBack(sql)).map((r) => r.n)).not.toContain("3");
  });

  it("inserts items in batches, each built while the one before is written; a failing batch undoes them all", async () => {
    await sql`truncate bulk`;
    let built = 0;
    const items = function* (count: number) {
      for (let n = 1; n <= count; n++) yield n;
    };
    const row = (n: number) => (built++, { n, big: String(n), label: `r${n}` });
    // Two COPYs of 2,000 rows and an INSERT of the 500 left.
    await sql.begin((tx) => insertBatched(tx, bulk, items(4_500), row, 2_000));
    const back = await readBack(sql);
    expect(built).toBe(4_500);
    expect(back.map((r) => Number(r.n))).toEqual([...items(4_500)]);
    expect(back.every((r) => r.big === r.n && r.s === `r${r.n}`)).toBe(true);

    // The second batch repeats a key of the first: nothing of the call is left.
    const failing = sql.begin(async (tx) => {
      await tx`delete from bulk`;
      await insertBatched(tx, bulk, [...items(2_000), ...items(2_000)], row, 2_000);
    });
    await expect(failing, "the failing COPY's own error").rejects.toThrow(/duplicate key/);
    expect((await readBack(sql)).length).toBe(4_500);
  });

  it("runs a transaction's steps at once, ends them all before it ends, and throws the first failure", async () => {
    await sql`truncate bulk`;
    await sql`insert into bulk (n, big) values (1, 1)`;
    // One step's statements interleave with another's; all of them commit.
    await sql.begin((tx) =>
      concurrently([
        (async () => {
          const [{ n }] = await tx<{ n: number }[]>`select 11 as n`;
          await insertRows(tx, bulk, [{ n, big: "2" }]);
        })(),
        insertRows(tx, bulk, [{ n: 20, big: "3" }]),
      ]),
    );
    expect((await readBack(sql)).map((r) => r.n)).toEqual(["1", "11", "20"]);

    // A step that fails in the thread while another still has statements to send: the other ends
    // (its writes inside the transaction, undone with it) before the failure is thrown.
    let last = "";
    const thrown = sql.begin((tx) =>
      concurrently([
        (async () => {
          await tx`select 1`;
          throw new RangeError("bad row");
        })(),
        (async () => {
          for (const n of [30, 31, 32]) await insertRows(tx, bulk, [{ n, big: "4" }]);
          last = "written";
        })(),
      ]),
    );
    await expect(thrown).rejects.toThrow("bad row");
    expect(last, "the other step ended first").toBe("written");

    // A statement that fails: the steps' later statements are refused, and its error is the one thrown.
    const refused = sql.begin((tx) =>
      concurrently([
        (async () => {
          await tx`select 1`;
          await insertRows(tx, bulk, [{ n: 40, big: "5" }]);
        })(),
        insertRows(tx, bulk, [{ n: 1, big: "1" }]),
      ]),
    );
    await expect(refused).rejects.toThrow(/duplicate key/);
    expect((await readBack(sql)).map((r) => r.n)).toEqual(["1", "11", "20"]);
  });
});
