-- hand-written around drizzle-kit's statements: alerts of other kinds than the token filter
-- (lib/domain/alert-conditions.ts); smart-money alerts come with Pro and API Tier, as webhooks do.
-- Numbered, and its snapshot made, after 0021_event_stream (the event stream's, on main).
CREATE TABLE "alert_event_blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "kind" text DEFAULT 'token' NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "smart_money_alerts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "plans" SET "smart_money_alerts" = "id" IN ('pro', 'api_tier');--> statement-breakpoint
ALTER TABLE "plans" ALTER COLUMN "smart_money_alerts" DROP DEFAULT;
