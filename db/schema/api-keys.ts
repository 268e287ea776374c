import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";

/** API keys: only the SHA-256 of the secret is stored, plus a display prefix. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text().primaryKey(),
    accountId: text()
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text().notNull().default("default"),
    /** First characters of the secret, safe to show (ocd_live_AbCd). */
    prefix: text().notNull(),
    hash: text().notNull().unique(),
    createdAt: createdAt(),
    /** Written at most once a minute per key, not on every request. */
    lastUsedAt: ts(),
    revokedAt: ts(),
    /** API Tier limits set per key; null takes the plan's default. */
    ratePerMinute: integer(),
    ratePerDay: integer(),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId)],
);
