ALTER TABLE "pools" ADD COLUMN "volume_24h_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "swaps_24h" integer DEFAULT 0 NOT NULL;