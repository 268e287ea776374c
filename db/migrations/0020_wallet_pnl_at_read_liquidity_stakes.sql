-- A wallet's PnL is valued when it is read, from its positions at the prices the positions list
-- reads (lib/queries/wallets.ts), no longer stored as of the worker's last refresh of the wallet.
-- The count triggers (db/functions/position-counts.sql, applied after the migrations, which
-- recount every wallet then) keep the price-free part of it.
ALTER TABLE "wallet_position_counts" ADD COLUMN "realized_less_cost_usd" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" DROP COLUMN "pnl_estimate_usd";
--> statement-breakpoint
-- Liquidity in a wallet's positions and PnL (docs/methodology.md, "Positions"): the liquidity
-- changes, a raw fact the indexer writes from now on, and the stakes folded from them. Liquidity
-- changes indexed before this migration are not in the table: a database indexed before it keeps
-- its positions as they were for them until it is indexed again from its start block.
CREATE TABLE "liquidity_changes" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"wallet" text NOT NULL,
	"pool_address" text NOT NULL,
	"token_address" text NOT NULL,
	"direction" text NOT NULL,
	"units" numeric(78, 0) NOT NULL,
	"quote_usd" double precision NOT NULL,
	CONSTRAINT "liquidity_changes_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "liquidity_stakes" (
	"wallet" text NOT NULL,
	"pool_address" text NOT NULL,
	"token_address" text NOT NULL,
	"units" numeric(78, 0) DEFAULT '0' NOT NULL,
	"cost_usd" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "liquidity_stakes_wallet_pool_address_pk" PRIMARY KEY("wallet","pool_address")
);
--> statement-breakpoint
ALTER TABLE "wallet_positions" ADD COLUMN "liquidity_cost_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "liquidity_changes_token_idx" ON "liquidity_changes" USING btree ("token_address","block_number");--> statement-breakpoint
CREATE INDEX "liquidity_stakes_token_idx" ON "liquidity_stakes" USING btree ("token_address");