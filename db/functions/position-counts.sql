-- The position counts (db/schema/wallets.ts): wallet_position_counts holds each wallet's number of
-- positions and of open ones (quantity > 0, as GET /v1/wallets/{address}/positions?status=open
-- selects them), the transaction that last added, removed or changed the quantity of one of
-- them (changed_xact), and the sum over them of realized PnL less cost basis (each as numeric:
-- exact, so the same sum however the rows were written), kept by statement triggers on
-- wallet_positions. The single live definition:
-- db/migrate.ts applies this file after the migrations whenever it changed, and the counts are
-- rebuilt then (the last statement). A bulk load disables the triggers and rebuilds once at the end.

-- A position's realized PnL less its cost basis, exactly (float8 to numeric keeps each value's digits).
CREATE OR REPLACE FUNCTION realized_less_cost(realized double precision, cost double precision) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT realized::numeric - cost::numeric $$;

CREATE OR REPLACE FUNCTION wallet_position_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  xact constant bigint := pg_current_xact_id()::text::bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO wallet_position_counts AS c (wallet, total, open, changed_xact, realized_less_cost_usd)
      SELECT wallet, count(*), count(*) FILTER (WHERE quantity > 0), xact,
             sum(realized_less_cost(realized_pnl_usd, cost_basis_usd))
        FROM new_rows GROUP BY wallet
    ON CONFLICT (wallet) DO UPDATE
      SET total = c.total + excluded.total, open = c.open + excluded.open, changed_xact = xact,
          realized_less_cost_usd = c.realized_less_cost_usd + excluded.realized_less_cost_usd;
  ELSIF TG_OP = 'UPDATE' THEN
    -- The key never changes: only a changed quantity changes the open positions (and may open or close one).
    UPDATE wallet_position_counts c
       SET open = c.open + x.delta, changed_xact = CASE WHEN x.moved THEN xact ELSE c.changed_xact END,
           realized_less_cost_usd = c.realized_less_cost_usd + x.booked
      FROM (
      SELECT n.wallet, sum((n.quantity > 0)::int - (o.quantity > 0)::int) AS delta,
             bool_or(n.quantity <> o.quantity) AS moved,
             sum(realized_less_cost(n.realized_pnl_usd, n.cost_basis_usd)
                 - realized_less_cost(o.realized_pnl_usd, o.cost_basis_usd)) AS booked
        FROM new_rows n JOIN old_rows o ON o.wallet = n.wallet AND o.token_address = n.token_address
       WHERE n.quantity <> o.quantity OR n.realized_pnl_usd <> o.realized_pnl_usd
          OR n.cost_basis_usd <> o.cost_basis_usd
       GROUP BY n.wallet
    ) x WHERE c.wallet = x.wallet;
  ELSE
    UPDATE wallet_position_counts c
       SET total = c.total - x.n, open = c.open - x.open, changed_xact = xact,
           realized_less_cost_usd = c.realized_less_cost_usd - x.booked
      FROM (
      SELECT wallet, count(*) AS n, count(*) FILTER (WHERE quantity > 0) AS open,
             sum(realized_less_cost(realized_pnl_usd, cost_basis_usd)) AS booked
        FROM old_rows GROUP BY wallet
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

-- Recounts everything from the positions, after a bulk load.
CREATE OR REPLACE FUNCTION wallet_position_counts_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM wallet_position_counts;
  INSERT INTO wallet_position_counts (wallet, total, open, changed_xact, realized_less_cost_usd)
    SELECT wallet, count(*), count(*) FILTER (WHERE quantity > 0), pg_current_xact_id()::text::bigint,
           sum(realized_less_cost(realized_pnl_usd, cost_basis_usd))
      FROM wallet_positions GROUP BY wallet;
$$;

-- Counts made under an earlier definition of this file (or before it) are recounted under this one.
SELECT wallet_position_counts_rebuild();
