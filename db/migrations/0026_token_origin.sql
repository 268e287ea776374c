DROP INDEX "tokens_creator_idx";--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "origin" text DEFAULT 'launchpad' NOT NULL;--> statement-breakpoint
CREATE INDEX "tokens_creator_idx" ON "tokens" USING btree ("creator","created_block" DESC NULLS LAST,"address");--> statement-breakpoint
-- Tokens indexed before the column: one found through a factory's pool carries that factory's
-- name, its launch pool's dex.
UPDATE "tokens" t SET "origin" = 'factory'
 WHERE EXISTS (SELECT 1 FROM "pools" p WHERE p."address" = t."launch_pool" AND p."dex" = t."launchpad");
