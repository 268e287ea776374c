CREATE TABLE "first_quote_payments" (
	"recipient" text PRIMARY KEY NOT NULL,
	"sender" text NOT NULL,
	"asset" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"tx_hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "first_quote_payments_block_idx" ON "first_quote_payments" USING btree ("block_number");