-- The launch counts (db/schema/tokens.ts): wallet_launch_counts holds how many tokens each wallet
-- created (tokens.creator; a token without a known creator counts for nobody), kept by triggers
-- on tokens. The single live definition: db/migrate.ts applies this file after the migrations
-- whenever it changed, and the counts are rebuilt then (the last statement).

-- Adds `delta` launches to each creator of `creators` (one entry per token); a wallet left
-- without launches keeps no row, as one that never had any.
CREATE OR REPLACE FUNCTION wallet_launch_counts_add(creators text[], delta int) RETURNS void LANGUAGE sql AS $$
  INSERT INTO wallet_launch_counts AS c (wallet, total)
    SELECT creator, count(*) * delta FROM unnest(creators) creator WHERE creator IS NOT NULL GROUP BY creator
  ON CONFLICT (wallet) DO UPDATE SET total = c.total + excluded.total;
  DELETE FROM wallet_launch_counts c WHERE c.wallet = ANY(creators) AND c.total <= 0;
$$;

CREATE OR REPLACE FUNCTION wallet_launch_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM wallet_launch_counts_add(ARRAY(SELECT creator FROM new_rows), 1);
  ELSE
    PERFORM wallet_launch_counts_add(ARRAY(SELECT creator FROM old_rows), -1);
  END IF;
  RETURN NULL;
END $$;

-- The indexer never changes a token's creator; a change made otherwise moves the launch.
CREATE OR REPLACE FUNCTION wallet_launch_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM wallet_launch_counts_add(ARRAY[OLD.creator], -1);
  PERFORM wallet_launch_counts_add(ARRAY[NEW.creator], 1);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION wallet_launch_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM wallet_launch_counts;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER tokens_launch_count_insert AFTER INSERT ON tokens
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_launch_counts_apply();

CREATE OR REPLACE TRIGGER tokens_launch_count_delete AFTER DELETE ON tokens
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_launch_counts_apply();

-- A row trigger, so the supply and anomaly updates of every range collect no transition tables.
CREATE OR REPLACE TRIGGER tokens_launch_count_update AFTER UPDATE OF creator ON tokens
  FOR EACH ROW WHEN (OLD.creator IS DISTINCT FROM NEW.creator) EXECUTE FUNCTION wallet_launch_counts_move();

CREATE OR REPLACE TRIGGER tokens_launch_count_truncate AFTER TRUNCATE ON tokens
  FOR EACH STATEMENT EXECUTE FUNCTION wallet_launch_counts_reset();

-- Counts made under an earlier definition of this file (or before it) are recounted under this one.
DELETE FROM wallet_launch_counts;
INSERT INTO wallet_launch_counts (wallet, total)
  SELECT creator, count(*) FROM tokens WHERE creator IS NOT NULL GROUP BY creator;
