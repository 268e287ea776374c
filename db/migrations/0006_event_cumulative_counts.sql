CREATE TABLE "event_cumulative_counts" (
	"scope" text NOT NULL,
	"block_number" bigint NOT NULL,
	"count" integer NOT NULL,
	"cum" bigint NOT NULL,
	CONSTRAINT "event_cumulative_counts_scope_block_number_pk" PRIMARY KEY("scope","block_number")
);
--> statement-breakpoint
CREATE INDEX "event_cumulative_counts_cum_idx" ON "event_cumulative_counts" USING btree ("scope","cum");