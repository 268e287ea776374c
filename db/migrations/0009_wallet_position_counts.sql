CREATE TABLE "wallet_position_counts" (
	"wallet" text PRIMARY KEY NOT NULL,
	"total" integer NOT NULL,
	"open" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wallet_positions_open_idx" ON "wallet_positions" USING btree ("wallet") WHERE "wallet_positions"."quantity" > 0;--> statement-breakpoint
CREATE INDEX "wallet_positions_closed_idx" ON "wallet_positions" USING btree ("wallet","realized_pnl_usd" DESC NULLS FIRST,"token_address") WHERE "wallet_positions"."quantity" <= 0;