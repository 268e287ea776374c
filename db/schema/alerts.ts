import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { AlertChannel, AlertKind, AlertStatus, DeliveryStatus } from "../../lib/domain/vocab";
import { accounts } from "./accounts";
import { apiKeys } from "./api-keys";
import { address, blockNumber, createdAt, ts } from "./columns";

export const alerts = pgTable(
  "alerts",
  {
    id: text().primaryKey(),
    keyId: text()
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    accountId: text()
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text().notNull(),
    status: text().$type<AlertStatus>().notNull().default("active"),
    /** What the alert watches; `token` (the spec's alerts) unless the body named another kind. */
    kind: text().$type<AlertKind>().notNull().default("token"),
    /** The kind's conditions: for `token`, the filter fields of GET /v1/tokens (lib/domain/alert-conditions.ts). */
    conditions: jsonb().$type<Record<string, unknown>>().notNull(),
    notificationChannel: text().$type<AlertChannel>().notNull().default("email"),
    webhookUrl: text(),
    /** HMAC key for webhook signatures; shown to the user once, at creation. */
    webhookSecret: text(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
    lastTriggeredAt: ts(),
    /**
     * Digest of the alert's alert_matches rows (count and order-free hash of the addresses),
     * written with them by the evaluator; null when there are none. A cycle reads the matches
     * only of alerts whose freshly computed digest differs.
     */
    matchDigest: text(),
  },
  (t) => [index("alerts_key_status_idx").on(t.keyId, t.status), index("alerts_status_idx").on(t.status)],
);

/** Tokens currently matching an alert; a token fires once until it stops matching. */
export const alertMatches = pgTable(
  "alert_matches",
  {
    alertId: text()
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    tokenAddress: address().notNull(),
    matchedAt: createdAt(),
    /** Set when a notification included this match; null while waiting for the cooldown. */
    notifiedAt: ts(),
  },
  (t) => [
    primaryKey({ columns: [t.alertId, t.tokenAddress] }),
    // Matches waiting for their alert to fire (cooldown): few, read every cycle.
    index("alert_matches_pending_idx").on(t.alertId).where(sql`${t.notifiedAt} is null`),
  ],
);

/** Transactional outbox: a firing and its notification row commit together. */
export const notifications = pgTable(
  "notifications",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    alertId: text()
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    channel: text().$type<AlertChannel>().notNull(),
    recipient: text().notNull(),
    idempotencyKey: text().notNull().unique(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text().$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: createdAt(),
    lastError: text(),
    createdAt: createdAt(),
    sentAt: ts(),
  },
  (t) => [index("notifications_due_idx").on(t.status, t.nextAttemptAt), index("notifications_alert_idx").on(t.alertId, t.id)],
);

/**
 * The blocks the event-driven alerts (wallet, smart_money) were last evaluated over, with the
 * hash each had then: a block whose hash no longer matches `blocks` (a reorg replaced it) is
 * evaluated again, since its new events carry new ids. Kept for the finality depth's worth of
 * blocks (worker/alerts/event-blocks.ts).
 */
export const alertEventBlocks = pgTable("alert_event_blocks", {
  number: blockNumber().primaryKey(),
  hash: text().notNull(),
});
