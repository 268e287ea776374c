import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import type { Plan } from "../../lib/domain/vocab";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";
import { plans } from "./plans";

/** The Stripe customer of an account, created at its first checkout. */
export const billingCustomers = pgTable("billing_customers", {
  accountId: text()
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  stripeCustomerId: text().notNull().unique("billing_customers_stripe_customer_id_unique"),
  createdAt: createdAt(),
});

/**
 * Stripe subscriptions as Stripe last stated them (fetched afresh on every event about them).
 * The account's plan is the best plan among its entitled subscriptions, else Free.
 */
export const billingSubscriptions = pgTable(
  "billing_subscriptions",
  {
    id: text().primaryKey(),
    accountId: text()
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    plan: text()
      .$type<Plan>()
      .notNull()
      .references(() => plans.id),
    /** Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete, ... */
    status: text().notNull(),
    currentPeriodEnd: ts(),
    /** When a cancellation takes effect (the period end, for one made in the portal); null if none is scheduled. */
    cancelAt: ts(),
    updatedAt: createdAt(),
  },
  (t) => [index("billing_subscriptions_account_idx").on(t.accountId)],
);

/** Stripe events already applied, by id: a redelivered event does nothing. */
export const stripeEvents = pgTable("stripe_events", {
  id: text().primaryKey(),
  type: text().notNull(),
  /** When Stripe created the event. */
  created: ts().notNull(),
  receivedAt: createdAt(),
});

export const METER_REPORT_KINDS = ["baseline", "usage"] as const;
export type MeterReportKind = (typeof METER_REPORT_KINDS)[number];

/**
 * API Tier usage reported to Stripe as meter events, per account per UTC day. `through` is the
 * day's request count (all the account's keys) covered by this row and the earlier ones; a
 * `usage` row reports `value` requests and is pending until `reported_at` is set, so a crash
 * resends the same event (same identifier) instead of counting again. A `baseline` row marks
 * where metering started (requests before it were made on another plan) and is never sent.
 */
export const billingMeterReports = pgTable(
  "billing_meter_reports",
  {
    /** The meter event's identifier at Stripe: account, day and `through`. */
    identifier: text().primaryKey(),
    accountId: text()
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: date({ mode: "string" }).notNull(),
    kind: text().$type<MeterReportKind>().notNull(),
    through: integer().notNull(),
    value: integer().notNull(),
    /** The meter event's timestamp, fixed when the row is written so a resend is identical. */
    eventTime: ts().notNull(),
    createdAt: createdAt(),
    reportedAt: ts(),
    lastError: text(),
  },
  (t) => [
    index("billing_meter_reports_account_day_idx").on(t.accountId, t.day, t.through),
    index("billing_meter_reports_pending_idx").on(t.createdAt).where(sql`${t.reportedAt} is null`),
    check("billing_meter_reports_value_check", sql`${t.value} >= 0 and ${t.through} >= 0`),
  ],
);

/**
 * An API Tier account's contract: the most any one of its keys may be set to. Without a row the
 * API Tier plan's own limits are the ceiling.
 */
export const accountContracts = pgTable(
  "account_contracts",
  {
    accountId: text()
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    maxRatePerMinute: integer().notNull(),
    maxRatePerDay: integer().notNull(),
    updatedAt: createdAt(),
  },
  (t) => [check("account_contracts_positive_check", sql`${t.maxRatePerMinute} > 0 and ${t.maxRatePerDay} > 0`)],
);
