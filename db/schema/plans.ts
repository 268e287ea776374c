import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";

/**
 * Plan limits, the single source for the API (rate limits, alert limit, webhook and smart-money
 * alert gates) and the dashboard. Rows are written by a migration.
 */
export const plans = pgTable("plans", {
  id: text().primaryKey(),
  label: text().notNull(),
  ratePerMinute: integer().notNull(),
  ratePerDay: integer().notNull(),
  /** Active alerts an account may hold: every plan has a cap, since each one is evaluated on every block. */
  maxActiveAlerts: integer().notNull(),
  webhooks: boolean().notNull(),
  /** Alerts on smart-money buys (kind smart_money). */
  smartMoneyAlerts: boolean().notNull(),
  /** Live (unrevoked) API keys an account may hold. */
  maxKeys: integer().notNull(),
  /** Concurrent event streams (GET /v1/events/stream) a key may hold open; 0: the plan has none. */
  maxStreams: integer().notNull().default(0),
  /** API keys an account may create per UTC day, rotations included (a rotation makes a new key). */
  keysPerDay: integer().notNull(),
  /** Shown on the plans page; what Stripe charges is set on the Stripe prices (STRIPE_PRICE_*). */
  monthlyPriceCents: integer(),
  /** Usage-based plans: the price of 1,000 requests. */
  perThousandRequestsCents: integer(),
});
