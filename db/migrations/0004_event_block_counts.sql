CREATE TABLE "event_block_counts" (
	"block_number" bigint NOT NULL,
	"type" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "event_block_counts_block_number_type_pk" PRIMARY KEY("block_number","type")
);
