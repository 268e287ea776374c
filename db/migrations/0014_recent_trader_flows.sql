-- Filled by the worker's full refresh, which every worker start runs (worker/derive/trader-flows.ts).
CREATE TABLE "recent_trader_flows" (
	"token_address" text NOT NULL,
	"wallet" text NOT NULL,
	"bought" numeric NOT NULL,
	"sold" numeric NOT NULL,
	CONSTRAINT "recent_trader_flows_token_address_wallet_pk" PRIMARY KEY("token_address","wallet")
);
--> statement-breakpoint
ALTER TABLE "recent_trader_flows" ADD CONSTRAINT "recent_trader_flows_token_address_tokens_address_fk" FOREIGN KEY ("token_address") REFERENCES "public"."tokens"("address") ON DELETE cascade ON UPDATE no action;