ALTER TABLE "token_metrics" RENAME COLUMN "volume24h_usd" TO "volume_24h_usd";--> statement-breakpoint
ALTER TABLE "token_metrics" RENAME COLUMN "holder_growth1h_pct" TO "holder_growth_1h_pct";--> statement-breakpoint
DROP INDEX "token_metrics_volume_idx";--> statement-breakpoint
CREATE INDEX "token_metrics_volume_idx" ON "token_metrics" USING btree ("volume_24h_usd" DESC NULLS FIRST,"address");