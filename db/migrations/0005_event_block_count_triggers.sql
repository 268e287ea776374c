-- The event count triggers also keep event_block_counts (see db/schema/events.ts).
CREATE OR REPLACE FUNCTION event_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO event_counts AS c (scope, count)
      SELECT scope, n FROM (
        SELECT 'all' AS scope, count(*) AS n FROM new_rows
        UNION ALL SELECT 'type:' || type, count(*) FROM new_rows GROUP BY type
      ) x WHERE n > 0
    ON CONFLICT (scope) DO UPDATE SET count = c.count + excluded.count;
    INSERT INTO event_block_counts AS b (block_number, type, count)
      SELECT block_number, type, count(*) FROM new_rows GROUP BY block_number, type
    ON CONFLICT (block_number, type) DO UPDATE SET count = b.count + excluded.count;
  ELSE
    UPDATE event_counts c SET count = c.count - x.n FROM (
        SELECT 'all' AS scope, count(*) AS n FROM old_rows
        UNION ALL SELECT 'type:' || type, count(*) FROM old_rows GROUP BY type
      ) x WHERE c.scope = x.scope;
    UPDATE event_block_counts b SET count = b.count - x.n FROM (
        SELECT block_number, type, count(*) AS n FROM old_rows GROUP BY block_number, type
      ) x WHERE b.block_number = x.block_number AND b.type = x.type;
    DELETE FROM event_block_counts b WHERE b.count <= 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event_counts;
  DELETE FROM event_block_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO event_block_counts (block_number, type, count)
  SELECT block_number, type, count(*) FROM events GROUP BY block_number, type
ON CONFLICT (block_number, type) DO NOTHING;
