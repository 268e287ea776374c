DROP INDEX "wallets_cluster_idx";--> statement-breakpoint
CREATE INDEX "wallets_cluster_idx" ON "wallets" USING btree ("cluster_id","address");