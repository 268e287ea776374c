-- What the token list's read model needs to read only what changed (lib/queries/token-list-index.ts):
-- token_metrics.changed_xact, the transaction that last wrote each row, and token_metrics_deletes,
-- the last transaction that deleted any. A reader keeps the snapshot (pg_current_snapshot) it read
-- at; the rows written since are those whose changed_xact that snapshot does not see. The single
-- live definition: db/migrate.ts applies this file after the migrations whenever it changed.

CREATE OR REPLACE FUNCTION token_metrics_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_xact := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END $$;

-- Statement triggers: a delete of thousands of rows (a deep reorg) writes the row once; a delete
-- of none does not, as it would send every reader back to a whole read.
CREATE OR REPLACE FUNCTION token_metrics_note_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows) THEN
      RETURN NULL;
    END IF;
  END IF;
  UPDATE token_metrics_deletes SET xact = pg_current_xact_id()::text::bigint;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER token_metrics_stamp BEFORE INSERT OR UPDATE ON token_metrics
  FOR EACH ROW EXECUTE FUNCTION token_metrics_stamp();
CREATE OR REPLACE TRIGGER token_metrics_deleted AFTER DELETE ON token_metrics
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION token_metrics_note_delete();
CREATE OR REPLACE TRIGGER token_metrics_truncated AFTER TRUNCATE ON token_metrics
  FOR EACH STATEMENT EXECUTE FUNCTION token_metrics_note_delete();
