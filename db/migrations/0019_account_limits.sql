-- hand-written around drizzle-kit's statements: a plan's limits are the account's, whatever its
-- keys do (db/functions/metering.sql, lib/keys/store.ts).
-- Every plan caps active alerts (each is evaluated on every block), and key creations per day
-- (a rotation is one: it makes a new key).
UPDATE "plans" SET "max_active_alerts" = 100 WHERE "id" = 'pro';--> statement-breakpoint
UPDATE "plans" SET "max_active_alerts" = 1000 WHERE "id" = 'api_tier';--> statement-breakpoint
ALTER TABLE "plans" ALTER COLUMN "max_active_alerts" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "keys_per_day" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
UPDATE "plans" SET "keys_per_day" = CASE "id" WHEN 'pro' THEN 50 WHEN 'api_tier' THEN 1000 ELSE 10 END;--> statement-breakpoint
ALTER TABLE "plans" ALTER COLUMN "keys_per_day" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
-- What a plan change now does (lib/billing/plan-change.ts), done once for the plans as they are:
-- active alerts beyond the cap are paused, newest first; live keys beyond it are disabled, newest
-- first. Nothing is deleted.
UPDATE "alerts" a SET "status" = 'paused', "updated_at" = now()
  FROM (SELECT al."id", row_number() OVER (PARTITION BY al."account_id" ORDER BY al."created_at", al."id") AS n, p."max_active_alerts" AS cap
          FROM "alerts" al JOIN "accounts" ac ON ac."id" = al."account_id" JOIN "plans" p ON p."id" = ac."plan"
         WHERE al."status" = 'active') r
 WHERE a."id" = r."id" AND r.n > r.cap;--> statement-breakpoint
UPDATE "api_keys" k SET "disabled_at" = now()
  FROM (SELECT ak."id", row_number() OVER (PARTITION BY ak."account_id" ORDER BY ak."created_at", ak."id") AS n, p."max_keys" AS cap
          FROM "api_keys" ak JOIN "accounts" ac ON ac."id" = ak."account_id" JOIN "plans" p ON p."id" = ac."plan"
         WHERE ak."revoked_at" IS NULL) r
 WHERE k."id" = r."id" AND r.n > r.cap;--> statement-breakpoint
-- The account's meter now counts its keys' requests too: today's join it, so the change gives no
-- account a fresh day.
INSERT INTO "usage_daily" AS u ("key_id", "day", "requests", "rejected")
SELECT k."account_id", d."day", sum(d."requests"), sum(d."rejected")
  FROM "usage_daily" d JOIN "api_keys" k ON k."id" = d."key_id"
 WHERE d."day" = (now() AT TIME ZONE 'UTC')::date
 GROUP BY k."account_id", d."day"
ON CONFLICT ("key_id", "day") DO UPDATE SET "requests" = u."requests" + excluded."requests", "rejected" = u."rejected" + excluded."rejected";--> statement-breakpoint
-- Their result columns change (a key's meter, its disabled state): db/functions/metering.sql
-- creates them again right after the migrations.
DROP FUNCTION IF EXISTS api_authorize(text);--> statement-breakpoint
DROP FUNCTION IF EXISTS api_key_limits(text);
