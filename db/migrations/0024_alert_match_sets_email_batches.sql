-- hand-written around drizzle-kit's statements. An alert's current matches move to one packed row
-- (alert_match_sets: each token the first 8 bytes of the SHA-256 of its address, as
-- worker/alerts/match-sets.ts computes it); alert_matches keeps only the matches that wait for a
-- firing. notifications.batch_key: the Resend batch call an email goes in.
CREATE TABLE "alert_match_sets" (
	"alert_id" text PRIMARY KEY NOT NULL,
	"tokens" bytea NOT NULL
);
--> statement-breakpoint
-- Hashes do not compress: stored without trying.
ALTER TABLE "alert_match_sets" ALTER COLUMN "tokens" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "alert_match_sets" ADD CONSTRAINT "alert_match_sets_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id")
  REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "alert_match_sets" ("alert_id", "tokens")
  SELECT "alert_id", string_agg(substring(sha256(convert_to("token_address", 'UTF8')) FROM 1 FOR 8), ''::bytea)
    FROM "alert_matches" GROUP BY "alert_id";--> statement-breakpoint
DELETE FROM "alert_matches" WHERE "notified_at" IS NOT NULL;--> statement-breakpoint
DROP INDEX "alert_matches_pending_idx";--> statement-breakpoint
ALTER TABLE "alert_matches" DROP COLUMN "notified_at";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "batch_key" text;--> statement-breakpoint
CREATE INDEX "notifications_batch_idx" ON "notifications" USING btree ("batch_key");
