CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text,
	"name" text,
	"plan" text DEFAULT 'free' NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_email_unique" UNIQUE("email"),
	CONSTRAINT "accounts_userId_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "alert_matches" (
	"alert_id" text NOT NULL,
	"token_address" text NOT NULL,
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	CONSTRAINT "alert_matches_alert_id_token_address_pk" PRIMARY KEY("alert_id","token_address")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"conditions" jsonb NOT NULL,
	"notification_channel" text DEFAULT 'email' NOT NULL,
	"webhook_url" text,
	"webhook_secret" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_triggered_at" timestamp with time zone,
	"match_digest" text
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "notifications_idempotencyKey_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text DEFAULT 'default' NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"rate_per_minute" integer,
	"rate_per_day" integer,
	CONSTRAINT "api_keys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "auth_accounts" (
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"provider" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"refresh_token" text,
	"access_token" text,
	"expires_at" integer,
	"token_type" text,
	"scope" text,
	"id_token" text,
	"session_state" text,
	CONSTRAINT "auth_accounts_provider_provider_account_id_pk" PRIMARY KEY("provider","provider_account_id")
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"session_token" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"expires" timestamp NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_verification_tokens" (
	"identifier" text NOT NULL,
	"token" text NOT NULL,
	"expires" timestamp NOT NULL,
	CONSTRAINT "auth_verification_tokens_identifier_token_pk" PRIMARY KEY("identifier","token")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text,
	"email" text,
	"email_verified" timestamp,
	"image" text,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "balances" (
	"token_address" text NOT NULL,
	"holder" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "balances_token_address_holder_pk" PRIMARY KEY("token_address","holder")
);
--> statement-breakpoint
CREATE TABLE "account_contracts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"max_rate_per_minute" integer NOT NULL,
	"max_rate_per_day" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_contracts_positive_check" CHECK ("account_contracts"."max_rate_per_minute" > 0 and "account_contracts"."max_rate_per_day" > 0)
);
--> statement-breakpoint
CREATE TABLE "billing_customers" (
	"account_id" text PRIMARY KEY NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_customers_stripe_customer_id_unique" UNIQUE("stripe_customer_id")
);
--> statement-breakpoint
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
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"created" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_state" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"indexed_block" bigint DEFAULT 0 NOT NULL,
	"indexed_block_hash" text,
	"indexed_block_time" timestamp with time zone,
	"head_block" bigint,
	"head_block_time" timestamp with time zone,
	"head_checked_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"cycle_failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"finality_depth" integer,
	"data_version" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_counts" (
	"scope" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "event_counts_scope_pk" PRIMARY KEY("scope")
);
--> statement-breakpoint
CREATE TABLE "event_cumulative_counts" (
	"scope" text NOT NULL,
	"block_number" bigint NOT NULL,
	"count" integer NOT NULL,
	"cum" bigint NOT NULL,
	CONSTRAINT "event_cumulative_counts_scope_block_number_pk" PRIMARY KEY("scope","block_number")
);
--> statement-breakpoint
CREATE TABLE "event_tombstones" (
	"id" bigint PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"wallet_address" text NOT NULL,
	"to_address" text,
	"token_address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"wallet_address" text NOT NULL,
	"to_address" text,
	"token_address" text NOT NULL,
	"pool_address" text,
	"token_amount" numeric(78, 0) DEFAULT '0' NOT NULL,
	"amount_usd" double precision DEFAULT 0 NOT NULL,
	"direction" text,
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_transfers" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"token_address" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"tx_hash" text NOT NULL,
	"tx_from" text,
	"kind" text DEFAULT 'transfer' NOT NULL,
	"amount_usd" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "token_transfers_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"rate_per_minute" integer NOT NULL,
	"rate_per_day" integer NOT NULL,
	"max_active_alerts" integer,
	"webhooks" boolean NOT NULL,
	"max_keys" integer NOT NULL,
	"monthly_price_cents" integer,
	"per_thousand_requests_cents" integer
);
--> statement-breakpoint
CREATE TABLE "pool_reserves" (
	"pool_address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"log_index" bigint NOT NULL,
	"reserve0" numeric(78, 0) NOT NULL,
	"reserve1" numeric(78, 0) NOT NULL,
	CONSTRAINT "pool_reserves_pool_address_block_number_log_index_pk" PRIMARY KEY("pool_address","block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "pools" (
	"address" text PRIMARY KEY NOT NULL,
	"factory" text NOT NULL,
	"dex" text NOT NULL,
	"token0" text NOT NULL,
	"token1" text NOT NULL,
	"reserve0" numeric(78, 0) DEFAULT '0' NOT NULL,
	"reserve1" numeric(78, 0) DEFAULT '0' NOT NULL,
	"lp_total_supply" numeric(78, 0) DEFAULT '0' NOT NULL,
	"liquidity_usd" double precision DEFAULT 0 NOT NULL,
	"created_block" bigint NOT NULL,
	"reserve_block" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quarantined_entities" (
	"kind" text NOT NULL,
	"address" text NOT NULL,
	"reason" text NOT NULL,
	"block" bigint NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "quarantined_entities_kind_address_pk" PRIMARY KEY("kind","address")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_buckets" (
	"key_id" text NOT NULL,
	"second" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_buckets_key_id_second_pk" PRIMARY KEY("key_id","second")
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"key_id" text NOT NULL,
	"day" date NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_key_id_day_pk" PRIMARY KEY("key_id","day")
);
--> statement-breakpoint
CREATE TABLE "token_scores" (
	"address" text PRIMARY KEY NOT NULL,
	"risk_score" double precision NOT NULL,
	"risk_level" text NOT NULL,
	"flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"holder_concentration_score" double precision,
	"liquidity_stability_score" double precision,
	"wash_trade_score" double precision,
	"smart_money_flow_score" double precision,
	"early_mover_count" integer DEFAULT 0 NOT NULL,
	"early_mover_net_activity" text DEFAULT 'holding' NOT NULL,
	"avg_reputation_top10" double precision DEFAULT 0 NOT NULL,
	"flag_evidence" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"adjustments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"method_version" text NOT NULL,
	"ai_summary" text DEFAULT '' NOT NULL,
	"summary_input_hash" text,
	"summary_facts_hash" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_scores" (
	"address" text PRIMARY KEY NOT NULL,
	"reputation_score" double precision NOT NULL,
	"confidence" text NOT NULL,
	"classification" text NOT NULL,
	"win_rate" double precision,
	"entry_timing_score" double precision,
	"consistency_score" double precision,
	"risk_drawdown_score" double precision,
	"adjustments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"closed_positions" integer DEFAULT 0 NOT NULL,
	"trade_count" integer DEFAULT 0 NOT NULL,
	"method_version" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"address_hash" text NOT NULL,
	"client_hash" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holder_count_history" (
	"token_address" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"holder_count" integer NOT NULL,
	CONSTRAINT "holder_count_history_token_address_at_pk" PRIMARY KEY("token_address","at")
);
--> statement-breakpoint
CREATE TABLE "token_metrics" (
	"address" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"price_usd" double precision DEFAULT 0 NOT NULL,
	"market_cap_usd" double precision DEFAULT 0 NOT NULL,
	"liquidity_usd" double precision DEFAULT 0 NOT NULL,
	"volume24h_usd" double precision DEFAULT 0 NOT NULL,
	"holder_count" integer DEFAULT 0 NOT NULL,
	"holder_growth1h_pct" double precision DEFAULT 0 NOT NULL,
	"trending_score" double precision DEFAULT 0 NOT NULL,
	"risk_score" double precision DEFAULT 50 NOT NULL,
	"risk_flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"priced_pool" text,
	"updated_block" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"address" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"symbol" text NOT NULL,
	"decimals" integer DEFAULT 18 NOT NULL,
	"total_supply" numeric(78, 0) NOT NULL,
	"supply_base" numeric(78, 0) DEFAULT '0' NOT NULL,
	"launchpad" text NOT NULL,
	"sector" text DEFAULT 'other' NOT NULL,
	"creator" text,
	"launch_pool" text,
	"created_block" bigint NOT NULL,
	"created_tx" text,
	"created_at" timestamp with time zone NOT NULL,
	"anomalies" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_funding" (
	"wallet" text PRIMARY KEY NOT NULL,
	"funder" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"tx_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_positions" (
	"wallet" text NOT NULL,
	"token_address" text NOT NULL,
	"quantity" numeric(78, 0) DEFAULT '0' NOT NULL,
	"cost_basis_usd" double precision DEFAULT 0 NOT NULL,
	"realized_pnl_usd" double precision DEFAULT 0 NOT NULL,
	"bought_usd" double precision DEFAULT 0 NOT NULL,
	"sold_usd" double precision DEFAULT 0 NOT NULL,
	"unknown_cost_quantity" numeric(78, 0) DEFAULT '0' NOT NULL,
	"buy_count" integer DEFAULT 0 NOT NULL,
	"sell_count" integer DEFAULT 0 NOT NULL,
	"first_buy_block" bigint,
	"last_trade_block" bigint,
	CONSTRAINT "wallet_positions_wallet_token_address_pk" PRIMARY KEY("wallet","token_address")
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"address" text PRIMARY KEY NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"trade_count" integer DEFAULT 0 NOT NULL,
	"funder" text,
	"cluster_id" text,
	"is_contract" integer DEFAULT 0 NOT NULL,
	"classification" text DEFAULT 'fresh' NOT NULL,
	"sector_preference" text DEFAULT 'other' NOT NULL,
	"pnl_estimate_usd" double precision DEFAULT 0 NOT NULL,
	"pnl_confidence" text DEFAULT 'low' NOT NULL,
	"portfolio_value_usd" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_plan_plans_id_fk" FOREIGN KEY ("plan") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_matches" ADD CONSTRAINT "alert_matches_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_accounts" ADD CONSTRAINT "auth_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_contracts" ADD CONSTRAINT "account_contracts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD CONSTRAINT "billing_customers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_meter_reports" ADD CONSTRAINT "billing_meter_reports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_plan_plans_id_fk" FOREIGN KEY ("plan") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_metrics" ADD CONSTRAINT "token_metrics_address_tokens_address_fk" FOREIGN KEY ("address") REFERENCES "public"."tokens"("address") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_matches_pending_idx" ON "alert_matches" USING btree ("alert_id") WHERE "alert_matches"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_key_status_idx" ON "alerts" USING btree ("key_id","status");--> statement-breakpoint
CREATE INDEX "alerts_status_idx" ON "alerts" USING btree ("status");--> statement-breakpoint
CREATE INDEX "notifications_due_idx" ON "notifications" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "notifications_alert_idx" ON "notifications" USING btree ("alert_id","id");--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "auth_sessions_user_idx" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "balances_token_amount_idx" ON "balances" USING btree ("token_address","amount" DESC NULLS FIRST,"holder");--> statement-breakpoint
CREATE INDEX "balances_holder_idx" ON "balances" USING btree ("holder");--> statement-breakpoint
CREATE INDEX "billing_meter_reports_account_day_idx" ON "billing_meter_reports" USING btree ("account_id","day","through");--> statement-breakpoint
CREATE INDEX "billing_meter_reports_pending_idx" ON "billing_meter_reports" USING btree ("created_at") WHERE "billing_meter_reports"."reported_at" is null;--> statement-breakpoint
CREATE INDEX "billing_subscriptions_account_idx" ON "billing_subscriptions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "blocks_timestamp_idx" ON "blocks" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "event_cumulative_counts_cum_idx" ON "event_cumulative_counts" USING btree ("scope","cum");--> statement-breakpoint
CREATE INDEX "event_tombstones_token_idx" ON "event_tombstones" USING btree ("token_address","id");--> statement-breakpoint
CREATE INDEX "event_tombstones_wallet_idx" ON "event_tombstones" USING btree ("wallet_address","id");--> statement-breakpoint
CREATE INDEX "event_tombstones_to_idx" ON "event_tombstones" USING btree ("to_address","id") WHERE "event_tombstones"."to_address" is not null;--> statement-breakpoint
CREATE INDEX "events_token_idx" ON "events" USING btree ("token_address","id");--> statement-breakpoint
CREATE INDEX "events_wallet_idx" ON "events" USING btree ("wallet_address","id");--> statement-breakpoint
CREATE INDEX "events_to_idx" ON "events" USING btree ("to_address","id") WHERE "events"."to_address" is not null;--> statement-breakpoint
CREATE INDEX "events_type_idx" ON "events" USING btree ("type","id");--> statement-breakpoint
CREATE INDEX "events_block_idx" ON "events" USING btree ("block_number");--> statement-breakpoint
CREATE INDEX "token_transfers_token_idx" ON "token_transfers" USING btree ("token_address","block_number");--> statement-breakpoint
CREATE INDEX "pool_reserves_block_idx" ON "pool_reserves" USING btree ("block_number");--> statement-breakpoint
CREATE INDEX "pools_token0_idx" ON "pools" USING btree ("token0");--> statement-breakpoint
CREATE INDEX "pools_token1_idx" ON "pools" USING btree ("token1");--> statement-breakpoint
CREATE INDEX "quarantined_entities_block_idx" ON "quarantined_entities" USING btree ("block");--> statement-breakpoint
CREATE INDEX "sign_in_requests_address_idx" ON "sign_in_requests" USING btree ("address_hash","requested_at");--> statement-breakpoint
CREATE INDEX "sign_in_requests_client_idx" ON "sign_in_requests" USING btree ("client_hash","requested_at");--> statement-breakpoint
CREATE INDEX "token_metrics_trending_idx" ON "token_metrics" USING btree ("trending_score" DESC NULLS FIRST,"address");--> statement-breakpoint
CREATE INDEX "token_metrics_created_idx" ON "token_metrics" USING btree ("created_at" DESC NULLS FIRST,"address");--> statement-breakpoint
CREATE INDEX "token_metrics_liquidity_idx" ON "token_metrics" USING btree ("liquidity_usd" DESC NULLS FIRST,"address");--> statement-breakpoint
CREATE INDEX "token_metrics_volume_idx" ON "token_metrics" USING btree ("volume24h_usd" DESC NULLS FIRST,"address");--> statement-breakpoint
CREATE INDEX "token_metrics_risk_idx" ON "token_metrics" USING btree ("risk_score","address");--> statement-breakpoint
CREATE INDEX "token_metrics_flags_idx" ON "token_metrics" USING gin ("risk_flags");--> statement-breakpoint
CREATE INDEX "tokens_launchpad_idx" ON "tokens" USING btree ("launchpad");--> statement-breakpoint
CREATE INDEX "wallet_funding_funder_idx" ON "wallet_funding" USING btree ("funder");--> statement-breakpoint
CREATE INDEX "wallet_funding_block_idx" ON "wallet_funding" USING btree ("block_number");--> statement-breakpoint
CREATE INDEX "wallet_positions_token_idx" ON "wallet_positions" USING btree ("token_address");--> statement-breakpoint
CREATE INDEX "wallets_cluster_idx" ON "wallets" USING btree ("cluster_id");--> statement-breakpoint
CREATE INDEX "wallets_funder_idx" ON "wallets" USING btree ("funder");--> statement-breakpoint
-- hand-written: what drizzle-kit does not express. Functions and triggers are not here: they live
-- once each in db/functions/*.sql, applied by db/migrate.ts after the migrations.
-- Plan limits (the one source of them; see db/schema/plans.ts).
INSERT INTO "plans" ("id", "label", "rate_per_minute", "rate_per_day", "max_active_alerts", "webhooks", "max_keys", "monthly_price_cents", "per_thousand_requests_cents") VALUES
  ('free', 'Free', 10, 100, 3, false, 2, 0, NULL),
  ('pro', 'Pro', 60, 10000, NULL, true, 10, 4900, NULL),
  ('api_tier', 'API Tier', 1000, 1000000, NULL, true, 100, NULL, 40);
--> statement-breakpoint
-- Per-second counters matter for a minute only: a crash may lose them, so they skip the WAL.
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
