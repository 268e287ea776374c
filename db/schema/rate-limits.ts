import { bigint, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * Each meter's requests in its last 61 seconds, one row per meter: `counts[s % 61]` holds second
 * s, for s from `second` - 60 to `second` (the newest second counted), and `total` is their sum.
 * The per-minute limit is that window's total (the partial oldest second counted in full, so no
 * 60-second span ever exceeds the limit). One row updated in place, never a row per second: a busy
 * key's request leaves no dead rows for the next one to step over (db/functions/metering.sql).
 */
export const rateLimitWindows = pgTable("rate_limit_windows", {
  keyId: text().primaryKey(),
  second: bigint({ mode: "number" }).notNull(),
  total: integer().notNull(),
  counts: integer().array().notNull(),
});

/** Usage metered per key per UTC day: the daily limit and API Tier billing read it. */
export const usageDaily = pgTable(
  "usage_daily",
  {
    keyId: text().notNull(),
    day: date({ mode: "string" }).notNull(),
    requests: integer().notNull().default(0),
    rejected: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);
