ALTER TABLE "token_metrics" ADD COLUMN "volume1h_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "token_metrics" ADD COLUMN "fdv_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "token_metrics" ADD COLUMN "price_change5m_pct" double precision;--> statement-breakpoint
ALTER TABLE "token_metrics" ADD COLUMN "price_change1h_pct" double precision;--> statement-breakpoint
ALTER TABLE "token_metrics" ADD COLUMN "price_change24h_pct" double precision;--> statement-breakpoint
ALTER TABLE "token_metrics" ADD COLUMN "buys24h" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "token_metrics" ADD COLUMN "sells24h" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "token_metrics" ADD COLUMN "makers24h" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "tokens_symbol_prefix_idx" ON "tokens" USING btree (lower("symbol") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "tokens_name_prefix_idx" ON "tokens" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "tokens_address_prefix_idx" ON "tokens" USING btree ("address" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "wallets_address_prefix_idx" ON "wallets" USING btree ("address" text_pattern_ops);