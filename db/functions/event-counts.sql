-- The event counts (db/schema/events.ts): event_counts holds the total per scope ('all',
-- 'type:<type>', 'token:<address>' and 'wallet:<address>'), event_cumulative_counts the running
-- total per block of the stream's scopes ('all' and 'type:<type>'), both kept by statement
-- triggers on events. The single live definition: db/migrate.ts applies this file after the
-- migrations whenever it changed, and the counts are rebuilt then (the last statement).

-- The party scopes of an event: its token, its sender and a transfer's receiver other than the
-- sender, as /v1/events?token_address= and ?wallet_address= select them (lib/queries/events.ts).
CREATE OR REPLACE FUNCTION event_party_scopes(token text, wallet text, receiver text) RETURNS text[]
  LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY['token:' || token, 'wallet:' || wallet,
                            CASE WHEN receiver <> wallet THEN 'wallet:' || receiver END], NULL)
$$;

-- A statement's events are counted per scope and block. Where they all follow the scope's last
-- counted block (the indexer appending at the head, a backfill's ranges), the new rows carry
-- their running totals at once; otherwise (events in old blocks, a reorg's delete) the running
-- totals are recomputed from the lowest block the statement touched, which for a reorg is the
-- few newest blocks. A bulk load out of block order disables the insert trigger and calls
-- event_counts_rebuild() once at the end.
-- One statement per scope, planned for its own bounds (force_custom_plan): a plan that cannot
-- see them (a join on the jsonb, a generic plan) scans and hashes the whole table, a cost that
-- grows with the chain's history on every block.
CREATE OR REPLACE FUNCTION event_cumulative_counts_refresh(affected jsonb) RETURNS void LANGUAGE plpgsql
  SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  s text;
  lo bigint;
BEGIN
  FOR s, lo IN SELECT key, value::bigint FROM jsonb_each_text(affected) LOOP
    UPDATE event_cumulative_counts c SET cum = x.cum FROM (
      SELECT r.block_number,
             coalesce((SELECT p.cum FROM event_cumulative_counts p
                        WHERE p.scope = s AND p.block_number < lo
                        ORDER BY p.block_number DESC LIMIT 1), 0)
               + sum(r.count) OVER (ORDER BY r.block_number) AS cum
        FROM event_cumulative_counts r
       WHERE r.scope = s AND r.block_number >= lo
    ) x
    WHERE c.scope = s AND c.block_number = x.block_number AND c.cum IS DISTINCT FROM x.cum;
  END LOOP;
END $$;
CREATE OR REPLACE FUNCTION event_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  affected jsonb;
  parties text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH d AS (
      SELECT s.scope, n.block_number, count(*) AS n
        FROM new_rows n CROSS JOIN LATERAL (VALUES ('all'), ('type:' || n.type)) s(scope)
       GROUP BY 1, 2
    ), p AS (
      SELECT s.scope, count(*) AS n
        FROM new_rows n CROSS JOIN LATERAL unnest(event_party_scopes(n.token_address, n.wallet_address, n.to_address)) s(scope)
       GROUP BY 1
    ), span AS (
      -- Each scope's lowest new block, and its last counted block with the running total there
      -- (as before this statement: every part of it reads the same snapshot).
      SELECT x.scope, x.lo, t.block_number AS last, coalesce(t.cum, 0) AS cum
        FROM (SELECT scope, min(block_number) AS lo FROM d GROUP BY scope) x
        LEFT JOIN LATERAL (SELECT c.block_number, c.cum FROM event_cumulative_counts c
                            WHERE c.scope = x.scope ORDER BY c.block_number DESC LIMIT 1) t ON true
    ), totals AS (
      INSERT INTO event_counts AS c (scope, count)
        SELECT scope, sum(n) FROM d GROUP BY scope UNION ALL SELECT scope, n FROM p
      ON CONFLICT (scope) DO UPDATE SET count = c.count + excluded.count
    ), blocks AS (
      INSERT INTO event_cumulative_counts AS b (scope, block_number, count, cum)
        SELECT d.scope, d.block_number, d.n,
               CASE WHEN s.last IS NULL OR s.lo > s.last
                    THEN s.cum + sum(d.n) OVER (PARTITION BY d.scope ORDER BY d.block_number) ELSE 0 END
          FROM d JOIN span s USING (scope)
      ON CONFLICT (scope, block_number) DO UPDATE SET count = b.count + excluded.count
    )
    SELECT jsonb_object_agg(scope, lo) INTO affected FROM span WHERE last IS NOT NULL AND lo <= last;
  ELSE
    WITH d AS (
      SELECT s.scope, o.block_number, count(*) AS n
        FROM old_rows o CROSS JOIN LATERAL (VALUES ('all'), ('type:' || o.type)) s(scope)
       GROUP BY 1, 2
    ), p AS (
      SELECT s.scope, count(*) AS n
        FROM old_rows o CROSS JOIN LATERAL unnest(event_party_scopes(o.token_address, o.wallet_address, o.to_address)) s(scope)
       GROUP BY 1
    ), totals AS (
      UPDATE event_counts c SET count = c.count - x.n
        FROM (SELECT scope, sum(n) AS n FROM d GROUP BY scope UNION ALL SELECT scope, n FROM p) x WHERE c.scope = x.scope
    ), blocks AS (
      UPDATE event_cumulative_counts b SET count = b.count - d.n
        FROM d WHERE b.scope = d.scope AND b.block_number = d.block_number
    )
    SELECT (SELECT jsonb_object_agg(scope, lo) FROM (SELECT scope, min(block_number) AS lo FROM d GROUP BY scope) x),
           (SELECT array_agg(scope) FROM p)
      INTO affected, parties;
    DELETE FROM event_cumulative_counts b
     WHERE (b.scope, b.block_number) IN (SELECT s.scope, o.block_number FROM old_rows o
                                          CROSS JOIN LATERAL (VALUES ('all'), ('type:' || o.type)) s(scope))
       AND b.count <= 0;
    -- A token or wallet left without events keeps no row (its total reads as 0).
    DELETE FROM event_counts WHERE scope = ANY(parties) AND count <= 0;
  END IF;
  IF affected IS NOT NULL THEN
    PERFORM event_cumulative_counts_refresh(affected);
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION event_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event_counts;
  DELETE FROM event_cumulative_counts;
  RETURN NULL;
END $$;
-- Recounts everything from the events table, after a bulk load.
CREATE OR REPLACE FUNCTION event_counts_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM event_counts;
  DELETE FROM event_cumulative_counts;
  INSERT INTO event_cumulative_counts (scope, block_number, count, cum)
    SELECT scope, block_number, n, sum(n) OVER (PARTITION BY scope ORDER BY block_number)
      FROM (
        SELECT s.scope, e.block_number, count(*) AS n
          FROM events e CROSS JOIN LATERAL (VALUES ('all'), ('type:' || e.type)) s(scope)
         GROUP BY 1, 2
      ) x;
  INSERT INTO event_counts (scope, count)
    SELECT scope, sum(count) FROM event_cumulative_counts GROUP BY scope
    UNION ALL
    SELECT s.scope, count(*) FROM events e
      CROSS JOIN LATERAL unnest(event_party_scopes(e.token_address, e.wallet_address, e.to_address)) s(scope)
     GROUP BY 1;
$$;

CREATE OR REPLACE TRIGGER events_count_insert AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_counts_apply();

CREATE OR REPLACE TRIGGER events_count_delete AFTER DELETE ON events
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION event_counts_apply();

CREATE OR REPLACE TRIGGER events_count_truncate AFTER TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION event_counts_reset();

-- Counts made under an earlier definition of this file are recounted under this one.
SELECT event_counts_rebuild();
