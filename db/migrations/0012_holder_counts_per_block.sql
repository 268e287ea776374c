ALTER TABLE "holder_count_history" RENAME COLUMN "hour" TO "at";--> statement-breakpoint
ALTER TABLE "holder_count_history" RENAME CONSTRAINT "holder_count_history_token_address_hour_pk" TO "holder_count_history_token_address_at_pk";
