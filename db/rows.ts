import type { PgTable } from "drizzle-orm/pg-core";

/**
 * Row types of statements written in SQL (Drizzle's `sql`, or text for `unsafe`), derived from
 * the schema: a renamed or retyped column then breaks tsc where its rows are read.
 */

/** A property name as the client's casing spells its column (db/client.ts `casing`): tradeCount → trade_count. */
type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}`
  : S;

/** A column's SQL name: the one it was given, else its property's in snake case. */
type SqlName<T extends PgTable, K extends keyof T["_"]["columns"]> = SnakeCase<T["_"]["columns"][K]["_"]["name"]>;

/** A value as a statement of the Drizzle driver returns it: a timestamp as text (the driver leaves it unparsed). */
type Returned<V> = V extends Date ? string : V;

/** The columns `K` of `table` as a statement selecting them by their own names returns them. */
export type SqlRow<T extends PgTable, K extends keyof T["$inferSelect"] & keyof T["_"]["columns"]> = {
  [P in K as SqlName<T, P>]: Returned<T["$inferSelect"][P]>;
};
