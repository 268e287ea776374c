DROP INDEX "events_to_idx";--> statement-breakpoint
CREATE INDEX "tokens_creator_idx" ON "tokens" USING btree ("creator");--> statement-breakpoint
CREATE INDEX "events_to_idx" ON "events" USING btree ("to_address","id","wallet_address") WHERE "events"."to_address" is not null;