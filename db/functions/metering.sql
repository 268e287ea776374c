-- Rate limiting and metering of the API (lib/api/auth.ts calls api_authorize and
-- dashboard_authorize). The single live definition: db/migrate.ts applies this file after the
-- migrations whenever it changed. A change of a function's arguments or result columns needs a
-- DROP FUNCTION in a migration first (CREATE OR REPLACE cannot change them).

-- The one metering rule, for API keys and for the dashboard alike: counts one request of
-- `p_meter` (a key id; for the dashboard's JSON routes an account id, or 'client:' and an address) against its limits
-- in usage_daily and rate_limit_windows. The day's usage row is counted and locked by one update
-- (undone only when the request is refused), which serialises one meter's requests through the
-- minute check, so both limits stay exact under concurrency. The minute window is one row per
-- meter, a ring of 61 per-second counts updated in place, so a request costs the same however
-- many the meter made before it (a row per second leaves dead rows for the next request's scan
-- until a vacuum comes).
CREATE OR REPLACE FUNCTION api_meter(p_meter text, p_per_minute integer, p_per_day integer)
RETURNS TABLE (
  allowed boolean, limit_window text, rate_limit integer, remaining integer, reset_at bigint, retry_after integer
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  now_ts timestamptz := clock_timestamp();
  now_s bigint := floor(extract(epoch FROM now_ts));
  today date := (now_ts AT TIME ZONE 'UTC')::date;
  day_reset bigint := extract(epoch FROM ((today + 1)::timestamp AT TIME ZONE 'UTC'))::bigint;
  used_day integer;
  used_min integer;
  oldest bigint;
  newest bigint;
  -- Seconds in the minute window: now and the 60 before it (the oldest may hold requests less than 60 s old).
  slots constant integer := 61;
  ring integer[];
  s bigint;
  minute_reset bigint;
BEGIN
  -- Counters need not wait for a WAL flush on every request: a database crash forgets at most
  -- the last fraction of a second of counted requests (wal_writer_delay).
  PERFORM set_config('synchronous_commit', 'off', true);

  -- Count this request first; used_day is then the count before it.
  UPDATE usage_daily u SET requests = u.requests + 1 WHERE u.key_id = p_meter AND u.day = today
    RETURNING u.requests - 1 INTO used_day;
  IF NOT FOUND THEN
    INSERT INTO usage_daily AS u (key_id, day, requests) VALUES (p_meter, today, 1)
      ON CONFLICT (key_id, day) DO UPDATE SET requests = u.requests + 1
      RETURNING u.requests - 1 INTO used_day;
  END IF;

  -- Locked too: requests either side of midnight lock different usage rows.
  SELECT w.second, w.total, w.counts INTO newest, used_min, ring FROM rate_limit_windows w WHERE w.key_id = p_meter FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO rate_limit_windows (key_id, second, total, counts) VALUES (p_meter, now_s, 0, array_fill(0, ARRAY[slots]))
      ON CONFLICT (key_id) DO NOTHING;
    SELECT w.second, w.total, w.counts INTO newest, used_min, ring FROM rate_limit_windows w WHERE w.key_id = p_meter FOR UPDATE;
  END IF;
  -- Move the window to end at now_s: the seconds it passes over are emptied. (A clock that stepped
  -- back keeps the newer seconds counted, which only makes the limit stricter for a minute.)
  IF now_s - newest >= slots OR newest - now_s >= slots THEN
    ring := array_fill(0, ARRAY[slots]);
    used_min := 0;
  ELSE
    FOR s IN newest + 1 .. now_s LOOP
      used_min := used_min - ring[s % slots + 1];
      ring[s % slots + 1] := 0;
    END LOOP;
  END IF;
  -- The second of the window's oldest request: the minute window resets `slots` seconds after it.
  IF used_min > 0 THEN
    FOR s IN now_s - slots + 1 .. now_s LOOP
      IF ring[s % slots + 1] > 0 THEN
        oldest := s;
        EXIT;
      END IF;
    END LOOP;
  END IF;

  allowed := used_day < p_per_day AND used_min < p_per_minute;
  IF allowed THEN
    ring[now_s % slots + 1] := ring[now_s % slots + 1] + 1;
    used_day := used_day + 1;
    used_min := used_min + 1;
    UPDATE rate_limit_windows w SET second = greatest(newest, now_s), total = used_min, counts = ring WHERE w.key_id = p_meter;
    oldest := coalesce(oldest, now_s);
  ELSE
    UPDATE usage_daily u SET requests = u.requests - 1, rejected = u.rejected + 1
     WHERE u.key_id = p_meter AND u.day = today;
  END IF;
  minute_reset := coalesce(oldest + slots, now_s);

  -- Report the window that binds: the one with fewer requests left.
  IF used_day >= p_per_day OR (p_per_day - used_day) < (p_per_minute - used_min) THEN
    limit_window := 'day'; rate_limit := p_per_day;
    remaining := greatest(p_per_day - used_day, 0); reset_at := day_reset;
  ELSE
    limit_window := 'minute'; rate_limit := p_per_minute;
    remaining := greatest(p_per_minute - used_min, 0); reset_at := minute_reset;
  END IF;
  retry_after := CASE WHEN allowed THEN 0 ELSE greatest(reset_at - now_s, 1)::integer END;
  RETURN NEXT;
END $$;

-- A live API key (not revoked) with its limits: its own where set, else its plan's; no row for an
-- unknown or revoked key. One SELECT, so a statement that calls it plans it inline (lib/api/auth.ts).
CREATE OR REPLACE FUNCTION api_key_limits(p_hash text)
RETURNS TABLE (id text, account_id text, plan text, last_used_at timestamptz, per_minute integer, per_day integer)
LANGUAGE sql STABLE AS $$
  SELECT ak.id, ak.account_id, a.plan, ak.last_used_at,
         coalesce(ak.rate_per_minute, p.rate_per_minute), coalesce(ak.rate_per_day, p.rate_per_day)
    FROM api_keys ak JOIN accounts a ON a.id = ak.account_id JOIN plans p ON p.id = a.plan
   WHERE ak.hash = p_hash AND ak.revoked_at IS NULL
$$;

-- An API key's request: the key (live, with its plan's or its own limits), metered by api_meter.
CREATE OR REPLACE FUNCTION api_authorize(p_hash text)
RETURNS TABLE (
  key_id text, account_id text, plan text, allowed boolean, limit_window text,
  rate_limit integer, remaining integer, reset_at bigint, retry_after integer,
  indexed_block bigint, data_version bigint
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  k record;
  m record;
BEGIN
  SELECT * INTO k FROM api_key_limits(p_hash);
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT * INTO m FROM api_meter(k.id, k.per_minute, k.per_day);
  key_id := k.id; account_id := k.account_id; plan := k.plan;
  allowed := m.allowed; limit_window := m.limit_window; rate_limit := m.rate_limit;
  remaining := m.remaining; reset_at := m.reset_at; retry_after := m.retry_after;

  IF k.last_used_at IS NULL OR k.last_used_at < clock_timestamp() - interval '1 minute' THEN
    UPDATE api_keys SET last_used_at = clock_timestamp() WHERE id = k.id;
  END IF;

  SELECT s.indexed_block, s.data_version INTO indexed_block, data_version
    FROM sync_state s ORDER BY s.chain_id LIMIT 1;
  RETURN NEXT;
END $$;

-- A request of the dashboard's market routes (lib/auth/route.ts), metered by api_meter: a
-- signed-in user's under their account's id with its plan's limits, as a key of that plan would
-- be; anyone else's (no session, or a user whose account row is not made yet) under their client
-- address with the Free plan's limits, so browsing without an account cannot read more than an
-- account of the smallest plan.
CREATE OR REPLACE FUNCTION dashboard_authorize(p_user text, p_client text)
RETURNS TABLE (
  plan text, allowed boolean, limit_window text,
  rate_limit integer, remaining integer, reset_at bigint, retry_after integer,
  indexed_block bigint, data_version bigint
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  k record;
  m record;
BEGIN
  SELECT a.id AS meter, a.plan, p.rate_per_minute AS per_minute, p.rate_per_day AS per_day
    INTO k
    FROM accounts a JOIN plans p ON p.id = a.plan
   WHERE a.user_id = p_user;
  IF NOT FOUND THEN
    SELECT 'client:' || p_client AS meter, p.id AS plan, p.rate_per_minute AS per_minute, p.rate_per_day AS per_day
      INTO k
      FROM plans p WHERE p.id = 'free';
  END IF;
  SELECT * INTO m FROM api_meter(k.meter, k.per_minute, k.per_day);
  plan := k.plan;
  allowed := m.allowed; limit_window := m.limit_window; rate_limit := m.rate_limit;
  remaining := m.remaining; reset_at := m.reset_at; retry_after := m.retry_after;
  SELECT s.indexed_block, s.data_version INTO indexed_block, data_version
    FROM sync_state s ORDER BY s.chain_id LIMIT 1;
  RETURN NEXT;
END $$;
