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

/**
 * The open event streams of each key (GET /v1/events/stream), for its plan's cap across every
 * server process: a stream holds a lease that its process renews while it is open
 * (lib/api/stream/leases.ts); a lease past its expiry (its process died) no longer counts.
 */
export const streamLeases = pgTable(
  "stream_leases",
  {
    id: text().primaryKey(),
    keyId: text()
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    openedAt: createdAt(),
    expiresAt: ts().notNull(),
  },
  (t) => [index("stream_leases_key_idx").on(t.keyId)],
);
