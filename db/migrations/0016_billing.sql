-- Billing through Stripe (lib/billing). Prices shown on the plans page; Stripe charges what its
-- prices (STRIPE_PRICE_PRO, STRIPE_PRICE_API_TIER) say, which are set to match.
ALTER TABLE "plans" ADD COLUMN "monthly_price_cents" integer;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "per_thousand_requests_cents" integer;--> statement-breakpoint
UPDATE "plans" SET "monthly_price_cents" = CASE "id" WHEN 'free' THEN 0 WHEN 'pro' THEN 4900 END,
  "per_thousand_requests_cents" = CASE "id" WHEN 'api_tier' THEN 40 END;--> statement-breakpoint
-- The Stripe customer of an account, created at its first checkout.
CREATE TABLE "billing_customers" (
	"account_id" text PRIMARY KEY NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_customers_stripe_customer_id_unique" UNIQUE("stripe_customer_id")
);
--> statement-breakpoint
-- Subscriptions as Stripe last stated them; the account's plan is the best entitled one.
CREATE TABLE "billing_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"plan" text NOT NULL,
	"status" text NOT NULL,
	"current_period_end" timestamp with time zone,
	"cancel_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Stripe events already applied: a redelivered event does nothing.
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"created" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- API Tier usage reported (or pending) as Stripe meter events, per account per UTC day.
CREATE TABLE "billing_meter_reports" (
	"identifier" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"through" integer NOT NULL,
	"value" integer NOT NULL,
	"event_time" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reported_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "billing_meter_reports_value_check" CHECK ("billing_meter_reports"."value" >= 0 and "billing_meter_reports"."through" >= 0)
);
--> statement-breakpoint
-- An API Tier account's contract: the most any one of its keys may be set to.
CREATE TABLE "account_contracts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"max_rate_per_minute" integer NOT NULL,
	"max_rate_per_day" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_contracts_positive_check" CHECK ("account_contracts"."max_rate_per_minute" > 0 and "account_contracts"."max_rate_per_day" > 0)
);
--> statement-breakpoint
ALTER TABLE "billing_customers" ADD CONSTRAINT "billing_customers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_plan_plans_id_fk" FOREIGN KEY ("plan") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_meter_reports" ADD CONSTRAINT "billing_meter_reports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_contracts" ADD CONSTRAINT "account_contracts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_subscriptions_account_idx" ON "billing_subscriptions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "billing_meter_reports_account_day_idx" ON "billing_meter_reports" USING btree ("account_id","day","through");--> statement-breakpoint
CREATE INDEX "billing_meter_reports_pending_idx" ON "billing_meter_reports" USING btree ("created_at") WHERE "billing_meter_reports"."reported_at" is null;
