CREATE TABLE "wallet_launch_counts" (
	"wallet" text PRIMARY KEY NOT NULL,
	"total" integer NOT NULL
);
