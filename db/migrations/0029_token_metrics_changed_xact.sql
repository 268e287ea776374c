CREATE TABLE "token_metrics_deletes" (
	"xact" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "token_metrics" ADD COLUMN "changed_xact" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "token_metrics_changed_idx" ON "token_metrics" USING btree ("changed_xact");--> statement-breakpoint
-- Its one row: no delete seen yet. Rows written before carry changed_xact 0, which no reader has seen:
-- the first read of the list reads every row.
INSERT INTO "token_metrics_deletes" ("xact") VALUES (0);
