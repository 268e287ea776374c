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
    /**
     * Set while the account's plan allows fewer live keys than it holds (after a downgrade): the
     * newest keys beyond the cap are refused until an upgrade or a revocation makes room.
     */
    disabledAt: ts(),
    /** API Tier limits set per key; null takes the plan's default. */
    ratePerMinute: integer(),
    ratePerDay: integer(),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId)],
);
