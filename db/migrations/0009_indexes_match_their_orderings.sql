DROP INDEX "token_metrics_trending_idx";--> statement-breakpoint
DROP INDEX "token_metrics_created_idx";--> statement-breakpoint
DROP INDEX "token_metrics_liquidity_idx";--> statement-breakpoint
DROP INDEX "token_metrics_volume_idx";--> statement-breakpoint
DROP INDEX "events_token_idx";--> statement-breakpoint
DROP INDEX "events_wallet_idx";--> statement-breakpoint
DROP INDEX "events_to_idx";--> statement-breakpoint
DROP INDEX "events_type_idx";--> statement-breakpoint
DROP INDEX "balances_token_amount_idx";--> statement-breakpoint
DROP INDEX "notifications_alert_idx";--> statement-breakpoint
CREATE INDEX "token_metrics_trending_idx" ON "token_metrics" USING btree ("trending_score" DESC NULLS FIRST,"address");--> statement-breakpoint
CREATE INDEX "token_metrics_created_idx" ON "token_metrics" USING btree ("created_at" DESC NULLS FIRST,"address");--> statement-breakpoint
CREATE INDEX "token_metrics_liquidity_idx" ON "token_metrics" USING btree ("liquidity_usd" DESC NULLS FIRST,"address");--> statement-breakpoint
CREATE INDEX "token_metrics_volume_idx" ON "token_metrics" USING btree ("volume24h_usd" DESC NULLS FIRST,"address");--> statement-breakpoint
CREATE INDEX "events_token_idx" ON "events" USING btree ("token_address","id");--> statement-breakpoint
CREATE INDEX "events_wallet_idx" ON "events" USING btree ("wallet_address","id");--> statement-breakpoint
CREATE INDEX "events_to_idx" ON "events" USING btree ("to_address","id") WHERE "events"."to_address" is not null;--> statement-breakpoint
CREATE INDEX "events_type_idx" ON "events" USING btree ("type","id");--> statement-breakpoint
CREATE INDEX "balances_token_amount_idx" ON "balances" USING btree ("token_address","amount" DESC NULLS FIRST,"holder");--> statement-breakpoint
CREATE INDEX "notifications_alert_idx" ON "notifications" USING btree ("alert_id","id");