-- Rate limiting and metering of the API (lib/api/auth.ts calls api_authorize and
-- dashboard_authorize). The single live definition: db/migrate.ts applies this file after the
-- migrations whenever it changed. A change of a function's arguments or result columns needs a
-- DROP FUNCTION in a migration first (CREATE OR REPLACE cannot change them).

-- Meters, each a row of usage_daily (and of rate_limit_windows where it limits) by id:
-- - an account's (its id) counts every request of the account, through its keys or its
--   dashboard, and holds its plan's limits: a new or rotated key starts no fresh window;
-- - a key's (its id) counts the key's requests; on a plan whose limits apply per key (API Tier:
--   each key its own, within the account's contract) it holds them, and the account's only counts;
-- - on such a plan the dashboard's ('dashboard:' and the account's id) is metered as one more key
--   of the account, with the plan's default key limits, and billed like one (lib/billing/metering.ts);
-- - an anonymous visitor's ('client:' and an address).

-- The one metering rule, for API keys and for the dashboard alike: counts one request of
-- `p_meter` against its limits in usage_daily and rate_limit_windows. The day's usage row is
-- counted and locked by one update (undone only when the request is refused), which serialises
-- one meter's requests through the minute check, so both limits stay exact under concurrency.
-- The minute window is one row per meter, a ring of 61 per-second counts updated in place, so a
-- request costs the same however many the meter made before it (a row per second leaves dead
-- rows for the next request's scan until a vacuum comes).
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

-- Counts one request (allowed or refused) on a meter that does not limit it: a key's own count
-- where its account's meter holds the limits, the account's where its key's does. Only the day's
-- row: a count no limit reads needs no minute window.
CREATE OR REPLACE FUNCTION api_count(p_meter text, p_allowed boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  today date := (clock_timestamp() AT TIME ZONE 'UTC')::date;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  UPDATE usage_daily u SET requests = u.requests + p_allowed::int, rejected = u.rejected + (NOT p_allowed)::int
   WHERE u.key_id = p_meter AND u.day = today;
  IF NOT FOUND THEN
    INSERT INTO usage_daily AS u (key_id, day, requests, rejected) VALUES (p_meter, today, p_allowed::int, (NOT p_allowed)::int)
      ON CONFLICT (key_id, day) DO UPDATE SET requests = u.requests + excluded.requests, rejected = u.rejected + excluded.rejected;
  END IF;
END $$;

-- Whether a plan's rate limits apply per key (API Tier) rather than per account.
CREATE OR REPLACE FUNCTION limits_per_key(p_plan text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p_plan = 'api_tier'
$$;

-- A live API key (not revoked) with the meter that limits it and its limits (the account's and
-- its plan's, or on API Tier the key's own and its own where set, else the plan's), and the meter
-- that only counts it; `disabled` while its account's plan allows fewer live keys. No row for an
-- unknown or revoked key. One SELECT, so a statement that calls it plans it inline (lib/api/auth.ts).
CREATE OR REPLACE FUNCTION api_key_limits(p_hash text)
RETURNS TABLE (
  id text, account_id text, plan text, last_used_at timestamptz, disabled boolean,
  meter text, counter text, per_minute integer, per_day integer
) LANGUAGE sql STABLE AS $$
  SELECT ak.id, ak.account_id, a.plan, ak.last_used_at, ak.disabled_at IS NOT NULL,
         CASE WHEN limits_per_key(a.plan) THEN ak.id ELSE a.id END,
         CASE WHEN limits_per_key(a.plan) THEN a.id ELSE ak.id END,
         CASE WHEN limits_per_key(a.plan) THEN coalesce(ak.rate_per_minute, p.rate_per_minute) ELSE p.rate_per_minute END,
         CASE WHEN limits_per_key(a.plan) THEN coalesce(ak.rate_per_day, p.rate_per_day) ELSE p.rate_per_day END
    FROM api_keys ak JOIN accounts a ON a.id = ak.account_id JOIN plans p ON p.id = a.plan
   WHERE ak.hash = p_hash AND ak.revoked_at IS NULL
$$;

-- An API key's request: the key (live, with its meters and limits), metered by api_meter and
-- counted by api_count. A disabled key's request is neither (`disabled`: lib/api/auth.ts refuses it).
CREATE OR REPLACE FUNCTION api_authorize(p_hash text)
RETURNS TABLE (
  key_id text, account_id text, plan text, allowed boolean, limit_window text,
  rate_limit integer, remaining integer, reset_at bigint, retry_after integer,
  indexed_block bigint, data_version bigint, disabled boolean
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
  key_id := k.id; account_id := k.account_id; plan := k.plan; disabled := k.disabled;
  IF k.disabled THEN
    allowed := false;
    RETURN NEXT;
    RETURN;
  END IF;
  -- The limiting meter first, then the counting one: every request locks its meters in this
  -- order (a key's, then its account's, on API Tier), so racing requests never deadlock.
  SELECT * INTO m FROM api_meter(k.meter, k.per_minute, k.per_day);
  PERFORM api_count(k.counter, m.allowed);
  allowed := m.allowed; limit_window := m.limit_window; rate_limit := m.rate_limit;
  remaining := m.remaining; reset_at := m.reset_at; retry_after := m.retry_after;

  IF k.last_used_at IS NULL OR k.last_used_at < clock_timestamp() - interval '1 minute' THEN
    UPDATE api_keys SET last_used_at = clock_timestamp() WHERE id = k.id;
  END IF;

  SELECT s.indexed_block, s.data_version INTO indexed_block, data_version
    FROM sync_state s ORDER BY s.chain_id LIMIT 1;
  RETURN NEXT;
END $$;

-- A request of the dashboard's metered routes (lib/auth/route.ts), metered by api_meter: a
-- signed-in user's against their account's plan limits, shared with its keys (on API Tier, under
-- the dashboard's own meter with the plan's default key limits, and counted on the account's);
-- anyone else's (no session, or a user whose account row is not made yet) under their client
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
  counter text;
BEGIN
  SELECT CASE WHEN limits_per_key(a.plan) THEN 'dashboard:' || a.id ELSE a.id END AS meter, a.id AS account,
         a.plan, p.rate_per_minute AS per_minute, p.rate_per_day AS per_day
    INTO k
    FROM accounts a JOIN plans p ON p.id = a.plan
   WHERE a.user_id = p_user;
  IF FOUND THEN
    IF limits_per_key(k.plan) THEN
      counter := k.account;
    END IF;
  ELSE
    SELECT 'client:' || p_client AS meter, p.id AS plan, p.rate_per_minute AS per_minute, p.rate_per_day AS per_day
      INTO k
      FROM plans p WHERE p.id = 'free';
  END IF;
  SELECT * INTO m FROM api_meter(k.meter, k.per_minute, k.per_day);
  IF counter IS NOT NULL THEN
    PERFORM api_count(counter, m.allowed);
  END IF;
  plan := k.plan;
  allowed := m.allowed; limit_window := m.limit_window; rate_limit := m.rate_limit;
  remaining := m.remaining; reset_at := m.reset_at; retry_after := m.retry_after;
  SELECT s.indexed_block, s.data_version INTO indexed_block, data_version
    FROM sync_state s ORDER BY s.chain_id LIMIT 1;
  RETURN NEXT;
END $$;
