import { bigint, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * Requests per key per second. The per-minute limit sums the buckets of the last 60 seconds
 * (counting the partial oldest second in full, so no 60-second span ever exceeds the limit).
 * Rows older than a minute are deleted by the rate-limit function itself.
 */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    keyId: text().notNull(),
    second: bigint({ mode: "number" }).notNull(),
    count: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.second] })],
);

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
