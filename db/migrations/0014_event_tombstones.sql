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
ALTER TABLE "sync_state" ADD COLUMN "head_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "cycle_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "last_failure_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "finality_depth" integer;--> statement-breakpoint
CREATE INDEX "event_tombstones_token_idx" ON "event_tombstones" USING btree ("token_address","id");--> statement-breakpoint
CREATE INDEX "event_tombstones_wallet_idx" ON "event_tombstones" USING btree ("wallet_address","id");--> statement-breakpoint
CREATE INDEX "event_tombstones_to_idx" ON "event_tombstones" USING btree ("to_address","id") WHERE "event_tombstones"."to_address" is not null;