CREATE TABLE "stream_leases" (
	"id" text PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reorg_rollbacks" (
	"id" bigint PRIMARY KEY NOT NULL,
	"ancestor_block" bigint NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "max_streams" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stream_leases" ADD CONSTRAINT "stream_leases_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stream_leases_key_idx" ON "stream_leases" USING btree ("key_id");--> statement-breakpoint
-- hand-written: concurrent event streams per key, by plan (db/schema/plans.ts). Free has none.
UPDATE "plans" SET "max_streams" = CASE "id" WHEN 'pro' THEN 5 WHEN 'api_tier' THEN 100 ELSE 0 END;
--> statement-breakpoint
-- Leases are renewed every few seconds and mean nothing after a crash: they skip the WAL.
ALTER TABLE "stream_leases" SET UNLOGGED;
--> statement-breakpoint
-- Rollbacks before this log: one per distinct removal time of the tombstones, rolled back to below
-- the lowest block it removed events of (its real ancestor may have been lower, in blocks without events).
INSERT INTO "reorg_rollbacks" ("id", "ancestor_block", "removed_at")
SELECT row_number() OVER (ORDER BY "removed_at"), min("block_number") - 1, "removed_at"
  FROM "event_tombstones" GROUP BY "removed_at";
