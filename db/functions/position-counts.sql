-- The position counts (db/schema/wallets.ts): wallet_position_counts holds each wallet's number of
-- positions and of open ones (quantity > 0, as GET /v1/wallets/{address}/positions?status=open
-- selects them), and the transaction that last added, removed or changed the quantity of one of
-- them (changed_xact), kept by statement triggers on wallet_positions. The single live definition:
-- db/migrate.ts applies this file after the migrations whenever it changed, and the counts are
-- rebuilt then (the last statement).

CREATE OR REPLACE FUNCTION wallet_position_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  xact constant bigint := pg_current_xact_id()::text::bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO wallet_position_counts AS c (wallet, total, open, changed_xact)
      SELECT wallet, count(*), count(*) FILTER (WHERE quantity > 0), xact FROM new_rows GROUP BY wallet
    ON CONFLICT (wallet) DO UPDATE SET total = c.total + excluded.total, open = c.open + excluded.open, changed_xact = xact;
  ELSIF TG_OP = 'UPDATE' THEN
    -- The key never changes: only a changed quantity changes the open positions (and may open or close one).
    UPDATE wallet_position_counts c SET open = c.open + x.delta, changed_xact = xact FROM (
      SELECT n.wallet, sum((n.quantity > 0)::int - (o.quantity > 0)::int) AS delta
        FROM new_rows n JOIN old_rows o ON o.wallet = n.wallet AND o.token_address = n.token_address
       WHERE n.quantity <> o.quantity
       GROUP BY n.wallet
    ) x WHERE c.wallet = x.wallet;
  ELSE
    UPDATE wallet_position_counts c SET total = c.total - x.n, open = c.open - x.open, changed_xact = xact FROM (
      SELECT wallet, count(*) AS n, count(*) FILTER (WHERE quantity > 0) AS open FROM old_rows GROUP BY wallet
    ) x WHERE c.wallet = x.wallet;
    -- A wallet left without positions keeps no row, as one that never had any.
    DELETE FROM wallet_position_counts c USING (SELECT DISTINCT wallet FROM old_rows) x
     WHERE c.wallet = x.wallet AND c.total <= 0;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION wallet_position_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM wallet_position_counts;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER wallet_positions_count_insert AFTER INSERT ON wallet_positions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_position_counts_apply();

CREATE OR REPLACE TRIGGER wallet_positions_count_update AFTER UPDATE ON wallet_positions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_position_counts_apply();

CREATE OR REPLACE TRIGGER wallet_positions_count_delete AFTER DELETE ON wallet_positions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_position_counts_apply();

CREATE OR REPLACE TRIGGER wallet_positions_count_truncate AFTER TRUNCATE ON wallet_positions
  FOR EACH STATEMENT EXECUTE FUNCTION wallet_position_counts_reset();

-- Counts made under an earlier definition of this file (or before it) are recounted under this one.
DELETE FROM wallet_position_counts;
INSERT INTO wallet_position_counts (wallet, total, open, changed_xact)
  SELECT wallet, count(*), count(*) FILTER (WHERE quantity > 0), pg_current_xact_id()::text::bigint FROM wallet_positions GROUP BY wallet;
