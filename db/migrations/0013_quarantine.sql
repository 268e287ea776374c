CREATE TABLE "quarantined_entities" (
	"kind" text NOT NULL,
	"address" text NOT NULL,
	"reason" text NOT NULL,
	"block" bigint NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "quarantined_entities_kind_address_pk" PRIMARY KEY("kind","address")
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "anomalies" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "quarantined_entities_block_idx" ON "quarantined_entities" USING btree ("block");