ALTER TABLE "token_scores" ALTER COLUMN "holder_concentration_score" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "token_scores" ALTER COLUMN "liquidity_stability_score" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "token_scores" ALTER COLUMN "wash_trade_score" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "token_scores" ALTER COLUMN "smart_money_flow_score" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "token_scores" ADD COLUMN "adjustments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "token_scores" ADD COLUMN "summary_facts_hash" text;--> statement-breakpoint
ALTER TABLE "wallet_scores" ALTER COLUMN "win_rate" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_scores" ALTER COLUMN "entry_timing_score" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_scores" ALTER COLUMN "consistency_score" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_scores" ALTER COLUMN "risk_drawdown_score" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_scores" ADD COLUMN "adjustments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_scores" ADD COLUMN "closed_positions" integer DEFAULT 0 NOT NULL;
