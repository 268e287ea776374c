CREATE TABLE "token_security" (
	"token_address" text PRIMARY KEY NOT NULL,
	"block" bigint NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"pool" text,
	"report" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "token_security" ADD CONSTRAINT "token_security_token_address_tokens_address_fk" FOREIGN KEY ("token_address") REFERENCES "public"."tokens"("address") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "token_security_block_idx" ON "token_security" USING btree ("block");