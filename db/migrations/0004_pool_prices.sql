ALTER TABLE "pools" ADD COLUMN "price_usd" double precision;
