import type { TransactionSql } from "postgres";
import type { Sql } from "@/db/client";

/** A transaction or pool handle: both run queries the same way. */
export type Tx = Sql | TransactionSql;

export type PgType = "text" | "int4" | "int8" | "float8" | "numeric" | "timestamptz" | "bool";
export type Column<R> = [name: string, type: PgType, value: (row: R) => unknown];

/** Rows from which a plain insert (no conflict clause) goes through COPY instead of INSERT. */
const COPY_FROM_ROWS = 2_000;

/**
 * Inserts rows in one statement: COPY for large plain inserts (about half the server's work of
 * an INSERT), else one multi-row INSERT whose columns travel as
 * array parameters that `unnest` turns back into rows. Either way one round trip per batch.
 */
export async function insertRows<R>(tx: Tx, table: string, columns: Column<R>[], rows: R[], suffix = ""): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name);
  if (!suffix && rows.length >= COPY_FROM_ROWS) {
    const text = `${rows.map((r) => columns.map(([, , value]) => copyField(value(r))).join("\t")).join("\n")}\n`;
    return writeCopy(tx, table, names, text);
  }
  const params = columns.map(([, , value]) => rows.map((r) => toParam(value(r))));
  const unnest = columns.map(([, type], i) => arrayParam(i + 1, type)).join(", ");
  await tx.unsafe(`insert into ${table} (${names.join(", ")}) select * from unnest(${unnest}) ${suffix}`, params as never[]);
}

async function writeCopy(tx: Tx, table: string, columns: string[], text: string) {
  const stream = await tx.unsafe(`copy ${table} (${columns.join(", ")}) from stdin`).writable();
  await new Promise<void>((resolve, reject) => {
    stream.on("error", reject);
    stream.on("finish", resolve);
    stream.end(text);
  });
}

/** A value in COPY's text format: \N for null, backslash escapes for the separators. */
function copyField(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  return String(v).replace(/[\\\t\n\r]/g, (c) => (c === "\t" ? "\\t" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\\\"));
}

/**
 * `$n` as an array of `type`. Numeric and timestamp arrays travel as text[]: drizzle's
 * postgres-js driver (which shares our client) leaves those array types unserialized.
 */
export const arrayParam = (n: number, type: PgType) => (type === "numeric" || type === "timestamptz" ? `$${n}::text[]::${type}[]` : `$${n}::${type}[]`);

function toParam(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  return v ?? null;
}

/** A Unix time as an ISO string: date parameters are passed as text (see arrayParam). */
export const isoTime = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();
