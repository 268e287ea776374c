-- One row per meter in place of one per meter and second (db/schema/rate-limits.ts). Minute
-- windows start empty, as after a crash (the table is unlogged like the buckets were); the day's
-- counts in usage_daily carry over.
CREATE UNLOGGED TABLE "rate_limit_windows" (
	"key_id" text PRIMARY KEY NOT NULL,
	"second" bigint NOT NULL,
	"total" integer NOT NULL,
	"counts" integer[] NOT NULL
);
--> statement-breakpoint
DROP TABLE "rate_limit_buckets" CASCADE;
