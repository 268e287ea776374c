import { bigserial, customType, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
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
     * Digest of the alert's match set (alert_match_sets: count and order-free hash of the
     * addresses), written with it by the evaluator; null when there are none. A cycle reads the
     * stored set only of alerts whose freshly computed digest differs.
     */
    matchDigest: text(),
  },
  (t) => [index("alerts_key_status_idx").on(t.keyId, t.status), index("alerts_status_idx").on(t.status)],
);

/**
 * Each alert's current match set, packed: every token as the first 8 bytes of the SHA-256 of its
 * address, concatenated in no order (worker/alerts/match-sets.ts). One row per alert, however many
 * tokens match, so the first evaluation of many alerts writes kilobytes per alert rather than a
 * row per token; alerts.match_digest describes it. No row: no matches.
 */
const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

export const alertMatchSets = pgTable("alert_match_sets", {
  alertId: text()
    .primaryKey()
    .references(() => alerts.id, { onDelete: "cascade" }),
  tokens: bytea().notNull(),
});

/**
 * Matches waiting for their alert's next firing (its cooldown): tokens in its set not yet
 * notified, since when. A firing notifies them all and deletes them.
 */
export const alertMatches = pgTable(
  "alert_matches",
  {
    alertId: text()
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    tokenAddress: address().notNull(),
    matchedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.tokenAddress] })],
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
    /**
     * Emails go to Resend in batches: the rows sent in one call share this key, fixed with the
     * batch's members at its first attempt, and every retry resends that batch under it (Resend
     * answers a repeated key without sending again). A row that goes alone carries its own
     * idempotency_key.
     */
    batchKey: text(),
  },
  (t) => [
    index("notifications_due_idx").on(t.status, t.nextAttemptAt),
    index("notifications_alert_idx").on(t.alertId, t.id),
    index("notifications_batch_idx").on(t.batchKey),
  ],
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
