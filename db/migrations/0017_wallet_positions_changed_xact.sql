-- The transaction that last changed a wallet's positions (db/schema/wallets.ts), set by the count
-- triggers (db/functions/position-counts.sql, applied after the migrations). Rows counted before
-- carry 0, which no reader has seen: their first read keeps them.
ALTER TABLE "wallet_position_counts" ADD COLUMN "changed_xact" bigint DEFAULT 0 NOT NULL;
