-- A wallet's PnL is valued when it is read, from its positions at the prices the positions list
-- reads (lib/queries/wallets.ts), no longer stored as of the worker's last refresh of the wallet.
-- The count triggers (db/functions/position-counts.sql, applied after the migrations, which
-- recount every wallet then) keep the price-free part of it.
ALTER TABLE "wallet_position_counts" ADD COLUMN "realized_less_cost_usd" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" DROP COLUMN "pnl_estimate_usd";
