ALTER TABLE "token_scores" ADD COLUMN "reputation_holders" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "token_scores" DROP COLUMN "avg_reputation_top10";