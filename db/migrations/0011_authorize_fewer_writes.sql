-- api_authorize of 0010 with fewer writes per request: the day's usage row is counted and
-- locked by one update (undone only when the request is refused), and a key's expired
-- per-second buckets are deleted only when there are some (about once a second), not on
-- every request. The lock on the usage row still serialises one key's requests through the
-- minute check, so both limits stay exact under concurrency.
CREATE OR REPLACE FUNCTION api_authorize(p_hash text)
RETURNS TABLE (
  key_id text, account_id text, plan text, allowed boolean, limit_window text,
  rate_limit integer, remaining integer, reset_at bigint, retry_after integer,
  indexed_block bigint, data_version bigint
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  k record;
  now_ts timestamptz := clock_timestamp();
  now_s bigint := floor(extract(epoch FROM now_ts));
  today date := (now_ts AT TIME ZONE 'UTC')::date;
  day_reset bigint := extract(epoch FROM ((today + 1)::timestamp AT TIME ZONE 'UTC'))::bigint;
  used_day integer;
  used_min integer;
  oldest bigint;
  expired bigint;
  minute_reset bigint;
BEGIN
  -- Counters and last-used time need not wait for a WAL flush on every request: a database
  -- crash forgets at most the last fraction of a second of counted requests (wal_writer_delay).
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT ak.id, ak.account_id, a.plan, ak.last_used_at,
         coalesce(ak.rate_per_minute, p.rate_per_minute) AS per_minute,
         coalesce(ak.rate_per_day, p.rate_per_day) AS per_day
    INTO k
    FROM api_keys ak JOIN accounts a ON a.id = ak.account_id JOIN plans p ON p.id = a.plan
   WHERE ak.hash = p_hash AND ak.revoked_at IS NULL;
  IF NOT FOUND THEN
    RETURN;
  END IF;

  -- Count this request first; used_day is then the count before it.
  UPDATE usage_daily u SET requests = u.requests + 1 WHERE u.key_id = k.id AND u.day = today
    RETURNING u.requests - 1 INTO used_day;
  IF NOT FOUND THEN
    INSERT INTO usage_daily AS u (key_id, day, requests) VALUES (k.id, today, 1)
      ON CONFLICT (key_id, day) DO UPDATE SET requests = u.requests + 1
      RETURNING u.requests - 1 INTO used_day;
  END IF;

  -- The bucket of second now-60 may hold requests less than 60 s old, so it stays in the window.
  SELECT coalesce(sum(b.count) FILTER (WHERE b.second >= now_s - 60), 0),
         min(b.second) FILTER (WHERE b.second >= now_s - 60),
         min(b.second)
    INTO used_min, oldest, expired
    FROM rate_limit_buckets b WHERE b.key_id = k.id;
  IF expired < now_s - 60 THEN
    DELETE FROM rate_limit_buckets b WHERE b.key_id = k.id AND b.second < now_s - 60;
  END IF;

  key_id := k.id; account_id := k.account_id; plan := k.plan;
  allowed := used_day < k.per_day AND used_min < k.per_minute;
  IF allowed THEN
    INSERT INTO rate_limit_buckets AS b (key_id, second, count) VALUES (k.id, now_s, 1)
      ON CONFLICT (key_id, second) DO UPDATE SET count = b.count + 1;
    used_day := used_day + 1;
    used_min := used_min + 1;
    oldest := coalesce(oldest, now_s);
  ELSE
    UPDATE usage_daily u SET requests = u.requests - 1, rejected = u.rejected + 1
     WHERE u.key_id = k.id AND u.day = today;
  END IF;
  minute_reset := coalesce(oldest + 61, now_s);

  -- Report the window that binds: the one with fewer requests left.
  IF used_day >= k.per_day OR (k.per_day - used_day) < (k.per_minute - used_min) THEN
    limit_window := 'day'; rate_limit := k.per_day;
    remaining := greatest(k.per_day - used_day, 0); reset_at := day_reset;
  ELSE
    limit_window := 'minute'; rate_limit := k.per_minute;
    remaining := greatest(k.per_minute - used_min, 0); reset_at := minute_reset;
  END IF;
  retry_after := CASE WHEN allowed THEN 0 ELSE greatest(reset_at - now_s, 1)::integer END;

  IF k.last_used_at IS NULL OR k.last_used_at < now_ts - interval '1 minute' THEN
    UPDATE api_keys SET last_used_at = now_ts WHERE id = k.id;
  END IF;

  SELECT s.indexed_block, s.data_version INTO indexed_block, data_version
    FROM sync_state s ORDER BY s.chain_id LIMIT 1;
  RETURN NEXT;
END $$;
