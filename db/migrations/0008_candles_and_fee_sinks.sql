CREATE TABLE "ohlcv_candles" (
	"token_address" text NOT NULL,
	"interval" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"volume_usd" numeric NOT NULL,
	"trades" integer NOT NULL,
	CONSTRAINT "ohlcv_candles_token_address_interval_bucket_start_pk" PRIMARY KEY("token_address","interval","bucket_start")
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "fee_sinks" text[] DEFAULT '{}'::text[] NOT NULL;