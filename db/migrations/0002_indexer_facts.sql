CREATE TABLE "wallet_funding" (
	"wallet" text PRIMARY KEY NOT NULL,
	"funder" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"tx_hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "supply_base" numeric(78, 0) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "token_transfers" ADD COLUMN "kind" text DEFAULT 'transfer' NOT NULL;--> statement-breakpoint
ALTER TABLE "token_transfers" ADD COLUMN "amount_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "wallet_funding_funder_idx" ON "wallet_funding" USING btree ("funder");--> statement-breakpoint
CREATE INDEX "wallet_funding_block_idx" ON "wallet_funding" USING btree ("block_number");--> statement-breakpoint
CREATE INDEX "pool_reserves_block_idx" ON "pool_reserves" USING btree ("block_number");