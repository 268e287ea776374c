CREATE TABLE "chain_contracts" (
	"address" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lp_positions" (
	"manager" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"pool_address" text NOT NULL,
	"owner" text NOT NULL,
	"tick_lower" integer NOT NULL,
	"tick_upper" integer NOT NULL,
	"liquidity" numeric(78, 0) NOT NULL,
	"created_block" bigint NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "lp_positions_manager_token_id_pk" PRIMARY KEY("manager","token_id")
);
--> statement-breakpoint
CREATE TABLE "position_events" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"manager" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"pool_address" text NOT NULL,
	"kind" text NOT NULL,
	"liquidity_delta" numeric(78, 0) DEFAULT '0' NOT NULL,
	"amount0" numeric(78, 0) DEFAULT '0' NOT NULL,
	"amount1" numeric(78, 0) DEFAULT '0' NOT NULL,
	"owner" text,
	"tick_lower" integer,
	"tick_upper" integer,
	"tx_hash" text NOT NULL,
	"tx_from" text,
	CONSTRAINT "position_events_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
ALTER TABLE "pool_reserves" ADD COLUMN "sqrt_price_x96" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "pool_reserves" ADD COLUMN "tick" integer;--> statement-breakpoint
ALTER TABLE "pool_reserves" ADD COLUMN "liquidity" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "protocol" text DEFAULT 'uniswap-v2' NOT NULL;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "fee" integer;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "tick_spacing" integer;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "sqrt_price_x96" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "tick" integer;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "liquidity" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "token_scores" ADD COLUMN "signals_missing" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_funding" ADD COLUMN "asset" text;--> statement-breakpoint
CREATE INDEX "lp_positions_pool_idx" ON "lp_positions" USING btree ("pool_address");--> statement-breakpoint
CREATE INDEX "lp_positions_owner_idx" ON "lp_positions" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "position_events_token_idx" ON "position_events" USING btree ("manager","token_id");--> statement-breakpoint
CREATE INDEX "position_events_pool_idx" ON "position_events" USING btree ("pool_address");