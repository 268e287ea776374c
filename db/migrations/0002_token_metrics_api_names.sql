ALTER TABLE "token_metrics" RENAME COLUMN "volume24h_usd" TO "volume_24h_usd";--> statement-breakpoint
ALTER TABLE "token_metrics" RENAME COLUMN "volume1h_usd" TO "volume_1h_usd";--> statement-breakpoint
ALTER TABLE "token_metrics" RENAME COLUMN "price_change5m_pct" TO "price_change_5m_pct";--> statement-breakpoint
ALTER TABLE "token_metrics" RENAME COLUMN "price_change1h_pct" TO "price_change_1h_pct";--> statement-breakpoint
ALTER TABLE "token_metrics" RENAME COLUMN "price_change24h_pct" TO "price_change_24h_pct";--> statement-breakpoint
ALTER TABLE "token_metrics" RENAME COLUMN "buys24h" TO "buys_24h";--> statement-breakpoint
ALTER TABLE "token_metrics" RENAME COLUMN "sells24h" TO "sells_24h";--> statement-breakpoint
ALTER TABLE "token_metrics" RENAME COLUMN "makers24h" TO "makers_24h";--> statement-breakpoint
ALTER TABLE "token_metrics" RENAME COLUMN "holder_growth1h_pct" TO "holder_growth_1h_pct";
