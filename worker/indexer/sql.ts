import type { TransactionSql } from "postgres";
import type { Sql } from "@/db/client";

/** A transaction or pool handle: both run queries the same way. */
export type Tx = Sql | TransactionSql;

export type PgType = "text" | "int4" | "int8" | "float8" | "numeric" | "timestamptz" | "bool";
export type Column<R> = [name: string, type: PgType, value: (row: R) => unknown];

/**
 * One multi-row INSERT for any number of rows: each column travels as one array parameter and
 * `unnest` turns them back into rows, so a batch costs one round trip and one plan.
 */
export async function insertRows<R>(tx: Tx, table: string, columns: Column<R>[], rows: R[], suffix = ""): Promise<void> {
  if (rows.length === 0) return;
  const params = columns.map(([, , value]) => rows.map((r) => toParam(value(r))));
  const names = columns.map(([name]) => name).join(", ");
  const unnest = columns.map(([, type], i) => arrayParam(i + 1, type)).join(", ");
  await tx.unsafe(`insert into ${table} (${names}) select * from unnest(${unnest}) ${suffix}`, params as never[]);
}

/**
 * `$n` as an array of `type`. Numeric and timestamp arrays travel as text[]: drizzle's
 * postgres-js driver (which shares our client) leaves those array types unserialized.
 */
export const arrayParam = (n: number, type: PgType) =>
  type === "numeric" || type === "timestamptz" ? `$${n}::text[]::${type}[]` : `$${n}::${type}[]`;

function toParam(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  return v ?? null;
}

/** A Unix time as an ISO string: date parameters are passed as text (see arrayParam). */
export const isoTime = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();
