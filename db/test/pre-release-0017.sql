-- A database as the 18 pre-release migrations (0000_init .. 0017_scores_explain_themselves)
-- left it, before they were squashed into 0000_baseline: pg_dump --no-owner --no-privileges
-- --inserts of a fresh one (schema, drizzle's journal, the plans rows). db/upgrade.test.ts
-- upgrades it and compares the result with a database the baseline built.

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: drizzle; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA drizzle;


--
-- Name: account_authorize(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.account_authorize(p_account text) RETURNS TABLE(account_id text, plan text, allowed boolean, limit_window text, rate_limit integer, remaining integer, reset_at bigint, retry_after integer, indexed_block bigint, data_version bigint)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
  k record;
  m record;
BEGIN
  SELECT a.id, a.plan, p.rate_per_minute AS per_minute, p.rate_per_day AS per_day
    INTO k
    FROM accounts a JOIN plans p ON p.id = a.plan
   WHERE a.id = p_account;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT * INTO m FROM api_meter(k.id, k.per_minute, k.per_day);
  account_id := k.id; plan := k.plan;
  allowed := m.allowed; limit_window := m.limit_window; rate_limit := m.rate_limit;
  remaining := m.remaining; reset_at := m.reset_at; retry_after := m.retry_after;
  SELECT s.indexed_block, s.data_version INTO indexed_block, data_version
    FROM sync_state s ORDER BY s.chain_id LIMIT 1;
  RETURN NEXT;
END $$;


--
-- Name: api_authorize(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.api_authorize(p_hash text) RETURNS TABLE(key_id text, account_id text, plan text, allowed boolean, limit_window text, rate_limit integer, remaining integer, reset_at bigint, retry_after integer, indexed_block bigint, data_version bigint)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
  k record;
  m record;
BEGIN
  SELECT ak.id, ak.account_id, a.plan, ak.last_used_at,
         coalesce(ak.rate_per_minute, p.rate_per_minute) AS per_minute,
         coalesce(ak.rate_per_day, p.rate_per_day) AS per_day
    INTO k
    FROM api_keys ak JOIN accounts a ON a.id = ak.account_id JOIN plans p ON p.id = a.plan
   WHERE ak.hash = p_hash AND ak.revoked_at IS NULL;
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


--
-- Name: api_meter(text, integer, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.api_meter(p_meter text, p_per_minute integer, p_per_day integer) RETURNS TABLE(allowed boolean, limit_window text, rate_limit integer, remaining integer, reset_at bigint, retry_after integer)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
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

  -- The bucket of second now-60 may hold requests less than 60 s old, so it stays in the window.
  SELECT coalesce(sum(b.count) FILTER (WHERE b.second >= now_s - 60), 0),
         min(b.second) FILTER (WHERE b.second >= now_s - 60),
         min(b.second)
    INTO used_min, oldest, expired
    FROM rate_limit_buckets b WHERE b.key_id = p_meter;
  IF expired < now_s - 60 THEN
    DELETE FROM rate_limit_buckets b WHERE b.key_id = p_meter AND b.second < now_s - 60;
  END IF;

  allowed := used_day < p_per_day AND used_min < p_per_minute;
  IF allowed THEN
    INSERT INTO rate_limit_buckets AS b (key_id, second, count) VALUES (p_meter, now_s, 1)
      ON CONFLICT (key_id, second) DO UPDATE SET count = b.count + 1;
    used_day := used_day + 1;
    used_min := used_min + 1;
    oldest := coalesce(oldest, now_s);
  ELSE
    UPDATE usage_daily u SET requests = u.requests - 1, rejected = u.rejected + 1
     WHERE u.key_id = p_meter AND u.day = today;
  END IF;
  minute_reset := coalesce(oldest + 61, now_s);

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


--
-- Name: event_counts_apply(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.event_counts_apply() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  affected jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH d AS (
      SELECT s.scope, n.block_number, count(*) AS n
        FROM new_rows n CROSS JOIN LATERAL (VALUES ('all'), ('type:' || n.type)) s(scope)
       GROUP BY 1, 2
    ), totals AS (
      INSERT INTO event_counts AS c (scope, count)
        SELECT scope, sum(n) FROM d GROUP BY scope
      ON CONFLICT (scope) DO UPDATE SET count = c.count + excluded.count
    ), blocks AS (
      INSERT INTO event_cumulative_counts AS b (scope, block_number, count, cum)
        SELECT scope, block_number, n, 0 FROM d
      ON CONFLICT (scope, block_number) DO UPDATE SET count = b.count + excluded.count
    )
    SELECT jsonb_object_agg(scope, lo) INTO affected FROM (SELECT scope, min(block_number) AS lo FROM d GROUP BY scope) x;
  ELSE
    WITH d AS (
      SELECT s.scope, o.block_number, count(*) AS n
        FROM old_rows o CROSS JOIN LATERAL (VALUES ('all'), ('type:' || o.type)) s(scope)
       GROUP BY 1, 2
    ), totals AS (
      UPDATE event_counts c SET count = c.count - x.n
        FROM (SELECT scope, sum(n) AS n FROM d GROUP BY scope) x WHERE c.scope = x.scope
    ), blocks AS (
      UPDATE event_cumulative_counts b SET count = b.count - d.n
        FROM d WHERE b.scope = d.scope AND b.block_number = d.block_number
    )
    SELECT jsonb_object_agg(scope, lo) INTO affected FROM (SELECT scope, min(block_number) AS lo FROM d GROUP BY scope) x;
    DELETE FROM event_cumulative_counts WHERE count <= 0;
  END IF;
  IF affected IS NOT NULL THEN
    PERFORM event_cumulative_counts_refresh(affected);
  END IF;
  RETURN NULL;
END $$;


--
-- Name: event_counts_rebuild(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.event_counts_rebuild() RETURNS void
    LANGUAGE sql
    AS $$
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
    SELECT scope, sum(count) FROM event_cumulative_counts GROUP BY scope;
$$;


--
-- Name: event_counts_reset(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.event_counts_reset() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  DELETE FROM event_counts;
  DELETE FROM event_cumulative_counts;
  RETURN NULL;
END $$;


--
-- Name: event_cumulative_counts_refresh(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.event_cumulative_counts_refresh(affected jsonb) RETURNS void
    LANGUAGE sql
    AS $$
  UPDATE event_cumulative_counts c SET cum = x.cum FROM (
    SELECT r.scope, r.block_number,
           m.base + sum(r.count) OVER (PARTITION BY r.scope ORDER BY r.block_number) AS cum
      FROM (
        SELECT a.key AS scope, a.value::bigint AS lo,
               coalesce((SELECT p.cum FROM event_cumulative_counts p
                          WHERE p.scope = a.key AND p.block_number < a.value::bigint
                          ORDER BY p.block_number DESC LIMIT 1), 0) AS base
          FROM jsonb_each_text(affected) a
      ) m
      JOIN event_cumulative_counts r ON r.scope = m.scope AND r.block_number >= m.lo
  ) x
  WHERE c.scope = x.scope AND c.block_number = x.block_number AND c.cum IS DISTINCT FROM x.cum;
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: __drizzle_migrations; Type: TABLE; Schema: drizzle; Owner: -
--

CREATE TABLE drizzle.__drizzle_migrations (
    id integer NOT NULL,
    hash text NOT NULL,
    created_at bigint
);


--
-- Name: __drizzle_migrations_id_seq; Type: SEQUENCE; Schema: drizzle; Owner: -
--

CREATE SEQUENCE drizzle.__drizzle_migrations_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: __drizzle_migrations_id_seq; Type: SEQUENCE OWNED BY; Schema: drizzle; Owner: -
--

ALTER SEQUENCE drizzle.__drizzle_migrations_id_seq OWNED BY drizzle.__drizzle_migrations.id;


--
-- Name: account_contracts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_contracts (
    account_id text NOT NULL,
    max_rate_per_minute integer NOT NULL,
    max_rate_per_day integer NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT account_contracts_positive_check CHECK (((max_rate_per_minute > 0) AND (max_rate_per_day > 0)))
);


--
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    id text NOT NULL,
    email text,
    name text,
    plan text DEFAULT 'free'::text NOT NULL,
    user_id text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: alert_matches; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alert_matches (
    alert_id text NOT NULL,
    token_address text NOT NULL,
    matched_at timestamp with time zone DEFAULT now() NOT NULL,
    notified_at timestamp with time zone
);


--
-- Name: alerts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alerts (
    id text NOT NULL,
    key_id text NOT NULL,
    account_id text NOT NULL,
    name text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    conditions jsonb NOT NULL,
    notification_channel text DEFAULT 'email'::text NOT NULL,
    webhook_url text,
    webhook_secret text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    last_triggered_at timestamp with time zone,
    match_digest text
);


--
-- Name: api_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_keys (
    id text NOT NULL,
    account_id text NOT NULL,
    name text DEFAULT 'default'::text NOT NULL,
    prefix text NOT NULL,
    hash text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_used_at timestamp with time zone,
    revoked_at timestamp with time zone,
    rate_per_minute integer,
    rate_per_day integer
);


--
-- Name: auth_accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auth_accounts (
    user_id text NOT NULL,
    type text NOT NULL,
    provider text NOT NULL,
    provider_account_id text NOT NULL,
    refresh_token text,
    access_token text,
    expires_at integer,
    token_type text,
    scope text,
    id_token text,
    session_state text
);


--
-- Name: auth_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auth_sessions (
    session_token text NOT NULL,
    user_id text NOT NULL,
    expires timestamp without time zone NOT NULL
);


--
-- Name: auth_verification_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auth_verification_tokens (
    identifier text NOT NULL,
    token text NOT NULL,
    expires timestamp without time zone NOT NULL
);


--
-- Name: balances; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.balances (
    token_address text NOT NULL,
    holder text NOT NULL,
    amount numeric(78,0) NOT NULL,
    updated_block bigint NOT NULL
);


--
-- Name: billing_customers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.billing_customers (
    account_id text NOT NULL,
    stripe_customer_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: billing_meter_reports; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.billing_meter_reports (
    identifier text NOT NULL,
    account_id text NOT NULL,
    day date NOT NULL,
    kind text NOT NULL,
    through integer NOT NULL,
    value integer NOT NULL,
    event_time timestamp with time zone NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    reported_at timestamp with time zone,
    last_error text,
    CONSTRAINT billing_meter_reports_value_check CHECK (((value >= 0) AND (through >= 0)))
);


--
-- Name: billing_subscriptions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.billing_subscriptions (
    id text NOT NULL,
    account_id text NOT NULL,
    plan text NOT NULL,
    status text NOT NULL,
    current_period_end timestamp with time zone,
    cancel_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: blocks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.blocks (
    number bigint NOT NULL,
    hash text NOT NULL,
    parent_hash text NOT NULL,
    "timestamp" timestamp with time zone NOT NULL
);


--
-- Name: event_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.event_counts (
    scope text NOT NULL,
    count bigint DEFAULT 0 NOT NULL
);


--
-- Name: event_cumulative_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.event_cumulative_counts (
    scope text NOT NULL,
    block_number bigint NOT NULL,
    count integer NOT NULL,
    cum bigint NOT NULL
);


--
-- Name: event_tombstones; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.event_tombstones (
    id bigint NOT NULL,
    type text NOT NULL,
    wallet_address text NOT NULL,
    to_address text,
    token_address text NOT NULL,
    block_number bigint NOT NULL,
    log_index integer NOT NULL,
    tx_hash text NOT NULL,
    "timestamp" timestamp with time zone NOT NULL,
    removed_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    id bigint NOT NULL,
    type text NOT NULL,
    wallet_address text NOT NULL,
    to_address text,
    token_address text NOT NULL,
    pool_address text,
    token_amount numeric(78,0) DEFAULT '0'::numeric NOT NULL,
    amount_usd double precision DEFAULT 0 NOT NULL,
    direction text,
    block_number bigint NOT NULL,
    log_index integer NOT NULL,
    tx_hash text NOT NULL,
    "timestamp" timestamp with time zone NOT NULL
);


--
-- Name: holder_count_history; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.holder_count_history (
    token_address text NOT NULL,
    at timestamp with time zone NOT NULL,
    holder_count integer NOT NULL
);


--
-- Name: notifications; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.notifications (
    id bigint NOT NULL,
    alert_id text NOT NULL,
    channel text NOT NULL,
    recipient text NOT NULL,
    idempotency_key text NOT NULL,
    payload jsonb NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    sent_at timestamp with time zone
);


--
-- Name: notifications_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.notifications_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: notifications_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.notifications_id_seq OWNED BY public.notifications.id;


--
-- Name: plans; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.plans (
    id text NOT NULL,
    label text NOT NULL,
    rate_per_minute integer NOT NULL,
    rate_per_day integer NOT NULL,
    max_active_alerts integer,
    webhooks boolean NOT NULL,
    max_keys integer NOT NULL,
    monthly_price_cents integer,
    per_thousand_requests_cents integer
);


--
-- Name: pool_reserves; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pool_reserves (
    pool_address text NOT NULL,
    block_number bigint NOT NULL,
    log_index bigint NOT NULL,
    reserve0 numeric(78,0) NOT NULL,
    reserve1 numeric(78,0) NOT NULL
);


--
-- Name: pools; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pools (
    address text NOT NULL,
    factory text NOT NULL,
    dex text NOT NULL,
    token0 text NOT NULL,
    token1 text NOT NULL,
    reserve0 numeric(78,0) DEFAULT '0'::numeric NOT NULL,
    reserve1 numeric(78,0) DEFAULT '0'::numeric NOT NULL,
    lp_total_supply numeric(78,0) DEFAULT '0'::numeric NOT NULL,
    liquidity_usd double precision DEFAULT 0 NOT NULL,
    created_block bigint NOT NULL,
    reserve_block bigint DEFAULT 0 NOT NULL
);


--
-- Name: quarantined_entities; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.quarantined_entities (
    kind text NOT NULL,
    address text NOT NULL,
    reason text NOT NULL,
    block bigint NOT NULL,
    first_seen_at timestamp with time zone NOT NULL
);


--
-- Name: rate_limit_buckets; Type: TABLE; Schema: public; Owner: -
--

CREATE UNLOGGED TABLE public.rate_limit_buckets (
    key_id text NOT NULL,
    second bigint NOT NULL,
    count integer NOT NULL
);


--
-- Name: sign_in_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sign_in_requests (
    id bigint NOT NULL,
    address_hash text NOT NULL,
    client_hash text NOT NULL,
    requested_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: sign_in_requests_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.sign_in_requests_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: sign_in_requests_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.sign_in_requests_id_seq OWNED BY public.sign_in_requests.id;


--
-- Name: stripe_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stripe_events (
    id text NOT NULL,
    type text NOT NULL,
    created timestamp with time zone NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: sync_state; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_state (
    chain_id integer NOT NULL,
    indexed_block bigint DEFAULT 0 NOT NULL,
    indexed_block_hash text,
    indexed_block_time timestamp with time zone,
    head_block bigint,
    head_block_time timestamp with time zone,
    heartbeat_at timestamp with time zone,
    data_version bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    head_checked_at timestamp with time zone,
    cycle_failures integer DEFAULT 0 NOT NULL,
    last_failure_at timestamp with time zone,
    finality_depth integer
);


--
-- Name: token_metrics; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.token_metrics (
    address text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    price_usd double precision DEFAULT 0 NOT NULL,
    market_cap_usd double precision DEFAULT 0 NOT NULL,
    liquidity_usd double precision DEFAULT 0 NOT NULL,
    volume24h_usd double precision DEFAULT 0 NOT NULL,
    holder_count integer DEFAULT 0 NOT NULL,
    holder_growth1h_pct double precision DEFAULT 0 NOT NULL,
    trending_score double precision DEFAULT 0 NOT NULL,
    risk_score double precision DEFAULT 50 NOT NULL,
    risk_flags text[] DEFAULT '{}'::text[] NOT NULL,
    priced_pool text,
    updated_block bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: token_scores; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.token_scores (
    address text NOT NULL,
    risk_score double precision NOT NULL,
    risk_level text NOT NULL,
    flags text[] DEFAULT '{}'::text[] NOT NULL,
    holder_concentration_score double precision,
    liquidity_stability_score double precision,
    wash_trade_score double precision,
    smart_money_flow_score double precision,
    early_mover_count integer DEFAULT 0 NOT NULL,
    early_mover_net_activity text DEFAULT 'holding'::text NOT NULL,
    avg_reputation_top10 double precision DEFAULT 0 NOT NULL,
    flag_evidence jsonb DEFAULT '[]'::jsonb NOT NULL,
    method_version text NOT NULL,
    ai_summary text DEFAULT ''::text NOT NULL,
    summary_input_hash text,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    adjustments jsonb DEFAULT '[]'::jsonb NOT NULL,
    summary_facts_hash text
);


--
-- Name: token_transfers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.token_transfers (
    block_number bigint NOT NULL,
    log_index integer NOT NULL,
    token_address text NOT NULL,
    from_address text NOT NULL,
    to_address text NOT NULL,
    amount numeric(78,0) NOT NULL,
    tx_hash text NOT NULL,
    tx_from text,
    kind text DEFAULT 'transfer'::text NOT NULL,
    amount_usd double precision DEFAULT 0 NOT NULL
);


--
-- Name: tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tokens (
    address text NOT NULL,
    name text NOT NULL,
    symbol text NOT NULL,
    decimals integer DEFAULT 18 NOT NULL,
    total_supply numeric(78,0) NOT NULL,
    launchpad text NOT NULL,
    sector text DEFAULT 'other'::text NOT NULL,
    creator text,
    launch_pool text,
    created_block bigint NOT NULL,
    created_tx text,
    created_at timestamp with time zone NOT NULL,
    supply_base numeric(78,0) DEFAULT '0'::numeric NOT NULL,
    anomalies text[] DEFAULT '{}'::text[] NOT NULL
);


--
-- Name: usage_daily; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.usage_daily (
    key_id text NOT NULL,
    day date NOT NULL,
    requests integer DEFAULT 0 NOT NULL,
    rejected integer DEFAULT 0 NOT NULL
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id text NOT NULL,
    name text,
    email text,
    email_verified timestamp without time zone,
    image text
);


--
-- Name: wallet_funding; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.wallet_funding (
    wallet text NOT NULL,
    funder text NOT NULL,
    value numeric(78,0) NOT NULL,
    block_number bigint NOT NULL,
    tx_hash text NOT NULL
);


--
-- Name: wallet_positions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.wallet_positions (
    wallet text NOT NULL,
    token_address text NOT NULL,
    quantity numeric(78,0) DEFAULT '0'::numeric NOT NULL,
    cost_basis_usd double precision DEFAULT 0 NOT NULL,
    realized_pnl_usd double precision DEFAULT 0 NOT NULL,
    bought_usd double precision DEFAULT 0 NOT NULL,
    sold_usd double precision DEFAULT 0 NOT NULL,
    unknown_cost_quantity numeric(78,0) DEFAULT '0'::numeric NOT NULL,
    buy_count integer DEFAULT 0 NOT NULL,
    sell_count integer DEFAULT 0 NOT NULL,
    first_buy_block bigint,
    last_trade_block bigint
);


--
-- Name: wallet_scores; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.wallet_scores (
    address text NOT NULL,
    reputation_score double precision NOT NULL,
    confidence text NOT NULL,
    classification text NOT NULL,
    win_rate double precision,
    entry_timing_score double precision,
    consistency_score double precision,
    risk_drawdown_score double precision,
    trade_count integer DEFAULT 0 NOT NULL,
    method_version text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    adjustments jsonb DEFAULT '[]'::jsonb NOT NULL,
    closed_positions integer DEFAULT 0 NOT NULL
);


--
-- Name: wallets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.wallets (
    address text NOT NULL,
    first_seen timestamp with time zone NOT NULL,
    last_seen timestamp with time zone NOT NULL,
    trade_count integer DEFAULT 0 NOT NULL,
    funder text,
    cluster_id text,
    is_contract integer DEFAULT 0 NOT NULL,
    classification text DEFAULT 'fresh'::text NOT NULL,
    sector_preference text DEFAULT 'other'::text NOT NULL,
    pnl_estimate_usd double precision DEFAULT 0 NOT NULL,
    pnl_confidence text DEFAULT 'low'::text NOT NULL,
    portfolio_value_usd double precision DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: __drizzle_migrations id; Type: DEFAULT; Schema: drizzle; Owner: -
--

ALTER TABLE ONLY drizzle.__drizzle_migrations ALTER COLUMN id SET DEFAULT nextval('drizzle.__drizzle_migrations_id_seq'::regclass);


--
-- Name: notifications id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notifications ALTER COLUMN id SET DEFAULT nextval('public.notifications_id_seq'::regclass);


--
-- Name: sign_in_requests id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sign_in_requests ALTER COLUMN id SET DEFAULT nextval('public.sign_in_requests_id_seq'::regclass);


--
-- Data for Name: __drizzle_migrations; Type: TABLE DATA; Schema: drizzle; Owner: -
--

INSERT INTO drizzle.__drizzle_migrations VALUES (1, 'a53bc17a31db88af300ee5cef8c6fa9c16ed74ac0a7c1a72e6f03650cd90ee2b', 1795235782920);
INSERT INTO drizzle.__drizzle_migrations VALUES (2, '63ed2fbf3af9f23a5d78f5e62a74cb9297cee83880f9581b371f7e5cf5c0cec7', 1795235783559);
INSERT INTO drizzle.__drizzle_migrations VALUES (3, 'd06e2fb211e5335874bebd858a3209b78c3fe6f29cf5b2272e2c59c4f331829e', 1795236793804);
INSERT INTO drizzle.__drizzle_migrations VALUES (4, '4be03ab92e6105b2810989f5f7ea22fed7568ccb7d0b8fd87a2fc6229206f9d5', 1795238309735);
INSERT INTO drizzle.__drizzle_migrations VALUES (5, '41b7a1c8488da2ecad510b851f4bd28eda4e2f5f2ef65ec569b769164ec1b4d4', 1795240236946);
INSERT INTO drizzle.__drizzle_migrations VALUES (6, '062fa796a8f2d6ac18c2be8cffab9be94639559c86165ae91eff5adc0501d7e1', 1795240238163);
INSERT INTO drizzle.__drizzle_migrations VALUES (7, 'e1e27b58a6a2895726d5fcfa196089199565c0b2b5b6286c4742e48852fcd94f', 1795247228695);
INSERT INTO drizzle.__drizzle_migrations VALUES (8, '15afad006114d1976177dae3aa56a5c88b90f9616ebc514f43bf234e276a4296', 1795247231145);
INSERT INTO drizzle.__drizzle_migrations VALUES (9, '8e8bd2dce13177f8183a6532476716278bc565afdf2e2030852edc4d5b610252', 1795247232130);
INSERT INTO drizzle.__drizzle_migrations VALUES (10, '375f24b7f7ceeda195be60662b54ccf36214e41b070e2889489fe00b45c5cbe3', 1795247456364);
INSERT INTO drizzle.__drizzle_migrations VALUES (11, '40eeac2a79f2003aedf99d3575cee603c9c41776f9291a53d5587fc55c17cd7d', 1795247882313);
INSERT INTO drizzle.__drizzle_migrations VALUES (12, 'ac935251d6e657ab49801d6af2df7110080400daf495f4a415a5e6dfd42073f6', 1795255012968);
INSERT INTO drizzle.__drizzle_migrations VALUES (13, 'f3fa24bf0058178bbfa827c1128d39db5eb44c466df8159baa3f2c89bb1c29cd', 1795300000000);
INSERT INTO drizzle.__drizzle_migrations VALUES (14, 'd4e4a13a49e4ca6c15a84157d8483b4cf156cae9d11ade668e965516f2fc912e', 1795300100000);
INSERT INTO drizzle.__drizzle_migrations VALUES (15, '8a49c37f6bf748bb955604310014b02673e4ade573b2024bf5909287b0979167', 1795300200000);
INSERT INTO drizzle.__drizzle_migrations VALUES (16, 'decf94b4dce470b1361dec1854cf2c91158517f1f48c69a76298be3bf1e0992b', 1795300300000);
INSERT INTO drizzle.__drizzle_migrations VALUES (17, '43b79efd74ec7d25f2b6457b880d8123eebe6771c74a9abe54753e0e782c5a52', 1795300400000);
INSERT INTO drizzle.__drizzle_migrations VALUES (18, 'a544aa05bf458b3083db52978972d0d527acd28fc756b14133122a0b5c9f1f7b', 1795300500000);


--
-- Data for Name: account_contracts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: accounts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: alert_matches; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: alerts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: api_keys; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: auth_accounts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: auth_sessions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: auth_verification_tokens; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: balances; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: billing_customers; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: billing_meter_reports; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: billing_subscriptions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: blocks; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: event_counts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: event_cumulative_counts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: event_tombstones; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: holder_count_history; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: notifications; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: plans; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.plans VALUES ('free', 'Free', 10, 100, 3, false, 2, 0, NULL);
INSERT INTO public.plans VALUES ('pro', 'Pro', 60, 10000, NULL, true, 10, 4900, NULL);
INSERT INTO public.plans VALUES ('api_tier', 'API Tier', 1000, 1000000, NULL, true, 100, NULL, 40);


--
-- Data for Name: pool_reserves; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: pools; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: quarantined_entities; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: rate_limit_buckets; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: sign_in_requests; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: stripe_events; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: sync_state; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: token_metrics; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: token_scores; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: token_transfers; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: tokens; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: usage_daily; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: wallet_funding; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: wallet_positions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: wallet_scores; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: wallets; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Name: __drizzle_migrations_id_seq; Type: SEQUENCE SET; Schema: drizzle; Owner: -
--

SELECT pg_catalog.setval('drizzle.__drizzle_migrations_id_seq', 18, true);


--
-- Name: notifications_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.notifications_id_seq', 1, false);


--
-- Name: sign_in_requests_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.sign_in_requests_id_seq', 1, false);


--
-- Name: __drizzle_migrations __drizzle_migrations_pkey; Type: CONSTRAINT; Schema: drizzle; Owner: -
--

ALTER TABLE ONLY drizzle.__drizzle_migrations
    ADD CONSTRAINT __drizzle_migrations_pkey PRIMARY KEY (id);


--
-- Name: account_contracts account_contracts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_contracts
    ADD CONSTRAINT account_contracts_pkey PRIMARY KEY (account_id);


--
-- Name: accounts accounts_email_unique; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_email_unique UNIQUE (email);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (id);


--
-- Name: accounts accounts_userId_unique; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT "accounts_userId_unique" UNIQUE (user_id);


--
-- Name: alert_matches alert_matches_alert_id_token_address_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_matches
    ADD CONSTRAINT alert_matches_alert_id_token_address_pk PRIMARY KEY (alert_id, token_address);


--
-- Name: alerts alerts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alerts
    ADD CONSTRAINT alerts_pkey PRIMARY KEY (id);


--
-- Name: api_keys api_keys_hash_unique; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_hash_unique UNIQUE (hash);


--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);


--
-- Name: auth_accounts auth_accounts_provider_provider_account_id_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_accounts
    ADD CONSTRAINT auth_accounts_provider_provider_account_id_pk PRIMARY KEY (provider, provider_account_id);


--
-- Name: auth_sessions auth_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_sessions
    ADD CONSTRAINT auth_sessions_pkey PRIMARY KEY (session_token);


--
-- Name: auth_verification_tokens auth_verification_tokens_identifier_token_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_verification_tokens
    ADD CONSTRAINT auth_verification_tokens_identifier_token_pk PRIMARY KEY (identifier, token);


--
-- Name: balances balances_token_address_holder_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.balances
    ADD CONSTRAINT balances_token_address_holder_pk PRIMARY KEY (token_address, holder);


--
-- Name: billing_customers billing_customers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.billing_customers
    ADD CONSTRAINT billing_customers_pkey PRIMARY KEY (account_id);


--
-- Name: billing_customers billing_customers_stripe_customer_id_unique; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.billing_customers
    ADD CONSTRAINT billing_customers_stripe_customer_id_unique UNIQUE (stripe_customer_id);


--
-- Name: billing_meter_reports billing_meter_reports_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.billing_meter_reports
    ADD CONSTRAINT billing_meter_reports_pkey PRIMARY KEY (identifier);


--
-- Name: billing_subscriptions billing_subscriptions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.billing_subscriptions
    ADD CONSTRAINT billing_subscriptions_pkey PRIMARY KEY (id);


--
-- Name: blocks blocks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.blocks
    ADD CONSTRAINT blocks_pkey PRIMARY KEY (number);


--
-- Name: event_counts event_counts_scope_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event_counts
    ADD CONSTRAINT event_counts_scope_pk PRIMARY KEY (scope);


--
-- Name: event_cumulative_counts event_cumulative_counts_scope_block_number_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event_cumulative_counts
    ADD CONSTRAINT event_cumulative_counts_scope_block_number_pk PRIMARY KEY (scope, block_number);


--
-- Name: event_tombstones event_tombstones_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event_tombstones
    ADD CONSTRAINT event_tombstones_pkey PRIMARY KEY (id);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);


--
-- Name: holder_count_history holder_count_history_token_address_at_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.holder_count_history
    ADD CONSTRAINT holder_count_history_token_address_at_pk PRIMARY KEY (token_address, at);


--
-- Name: notifications notifications_idempotencyKey_unique; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notifications
    ADD CONSTRAINT "notifications_idempotencyKey_unique" UNIQUE (idempotency_key);


--
-- Name: notifications notifications_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notifications
    ADD CONSTRAINT notifications_pkey PRIMARY KEY (id);


--
-- Name: plans plans_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.plans
    ADD CONSTRAINT plans_pkey PRIMARY KEY (id);


--
-- Name: pool_reserves pool_reserves_pool_address_block_number_log_index_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pool_reserves
    ADD CONSTRAINT pool_reserves_pool_address_block_number_log_index_pk PRIMARY KEY (pool_address, block_number, log_index);


--
-- Name: pools pools_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pools
    ADD CONSTRAINT pools_pkey PRIMARY KEY (address);


--
-- Name: quarantined_entities quarantined_entities_kind_address_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.quarantined_entities
    ADD CONSTRAINT quarantined_entities_kind_address_pk PRIMARY KEY (kind, address);


--
-- Name: rate_limit_buckets rate_limit_buckets_key_id_second_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_limit_buckets
    ADD CONSTRAINT rate_limit_buckets_key_id_second_pk PRIMARY KEY (key_id, second);


--
-- Name: sign_in_requests sign_in_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sign_in_requests
    ADD CONSTRAINT sign_in_requests_pkey PRIMARY KEY (id);


--
-- Name: stripe_events stripe_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stripe_events
    ADD CONSTRAINT stripe_events_pkey PRIMARY KEY (id);


--
-- Name: sync_state sync_state_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_state
    ADD CONSTRAINT sync_state_pkey PRIMARY KEY (chain_id);


--
-- Name: token_metrics token_metrics_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.token_metrics
    ADD CONSTRAINT token_metrics_pkey PRIMARY KEY (address);


--
-- Name: token_scores token_scores_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.token_scores
    ADD CONSTRAINT token_scores_pkey PRIMARY KEY (address);


--
-- Name: token_transfers token_transfers_block_number_log_index_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.token_transfers
    ADD CONSTRAINT token_transfers_block_number_log_index_pk PRIMARY KEY (block_number, log_index);


--
-- Name: tokens tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_pkey PRIMARY KEY (address);


--
-- Name: usage_daily usage_daily_key_id_day_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.usage_daily
    ADD CONSTRAINT usage_daily_key_id_day_pk PRIMARY KEY (key_id, day);


--
-- Name: users users_email_unique; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_email_unique UNIQUE (email);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: wallet_funding wallet_funding_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet_funding
    ADD CONSTRAINT wallet_funding_pkey PRIMARY KEY (wallet);


--
-- Name: wallet_positions wallet_positions_wallet_token_address_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet_positions
    ADD CONSTRAINT wallet_positions_wallet_token_address_pk PRIMARY KEY (wallet, token_address);


--
-- Name: wallet_scores wallet_scores_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet_scores
    ADD CONSTRAINT wallet_scores_pkey PRIMARY KEY (address);


--
-- Name: wallets wallets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallets
    ADD CONSTRAINT wallets_pkey PRIMARY KEY (address);


--
-- Name: alert_matches_pending_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX alert_matches_pending_idx ON public.alert_matches USING btree (alert_id) WHERE (notified_at IS NULL);


--
-- Name: alerts_key_status_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX alerts_key_status_idx ON public.alerts USING btree (key_id, status);


--
-- Name: alerts_status_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX alerts_status_idx ON public.alerts USING btree (status);


--
-- Name: api_keys_account_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_keys_account_idx ON public.api_keys USING btree (account_id);


--
-- Name: auth_sessions_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auth_sessions_user_idx ON public.auth_sessions USING btree (user_id);


--
-- Name: balances_holder_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX balances_holder_idx ON public.balances USING btree (holder);


--
-- Name: balances_token_amount_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX balances_token_amount_idx ON public.balances USING btree (token_address, amount DESC, holder);


--
-- Name: billing_meter_reports_account_day_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX billing_meter_reports_account_day_idx ON public.billing_meter_reports USING btree (account_id, day, through);


--
-- Name: billing_meter_reports_pending_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX billing_meter_reports_pending_idx ON public.billing_meter_reports USING btree (created_at) WHERE (reported_at IS NULL);


--
-- Name: billing_subscriptions_account_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX billing_subscriptions_account_idx ON public.billing_subscriptions USING btree (account_id);


--
-- Name: blocks_timestamp_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX blocks_timestamp_idx ON public.blocks USING btree ("timestamp");


--
-- Name: event_cumulative_counts_cum_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX event_cumulative_counts_cum_idx ON public.event_cumulative_counts USING btree (scope, cum);


--
-- Name: event_tombstones_to_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX event_tombstones_to_idx ON public.event_tombstones USING btree (to_address, id) WHERE (to_address IS NOT NULL);


--
-- Name: event_tombstones_token_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX event_tombstones_token_idx ON public.event_tombstones USING btree (token_address, id);


--
-- Name: event_tombstones_wallet_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX event_tombstones_wallet_idx ON public.event_tombstones USING btree (wallet_address, id);


--
-- Name: events_block_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_block_idx ON public.events USING btree (block_number);


--
-- Name: events_to_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_to_idx ON public.events USING btree (to_address, id) WHERE (to_address IS NOT NULL);


--
-- Name: events_token_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_token_idx ON public.events USING btree (token_address, id);


--
-- Name: events_type_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_type_idx ON public.events USING btree (type, id);


--
-- Name: events_wallet_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_wallet_idx ON public.events USING btree (wallet_address, id);


--
-- Name: notifications_alert_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX notifications_alert_idx ON public.notifications USING btree (alert_id, id);


--
-- Name: notifications_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX notifications_due_idx ON public.notifications USING btree (status, next_attempt_at);


--
-- Name: pool_reserves_block_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pool_reserves_block_idx ON public.pool_reserves USING btree (block_number);


--
-- Name: pools_token0_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pools_token0_idx ON public.pools USING btree (token0);


--
-- Name: pools_token1_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pools_token1_idx ON public.pools USING btree (token1);


--
-- Name: quarantined_entities_block_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX quarantined_entities_block_idx ON public.quarantined_entities USING btree (block);


--
-- Name: sign_in_requests_address_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sign_in_requests_address_idx ON public.sign_in_requests USING btree (address_hash, requested_at);


--
-- Name: sign_in_requests_client_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sign_in_requests_client_idx ON public.sign_in_requests USING btree (client_hash, requested_at);


--
-- Name: token_metrics_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX token_metrics_created_idx ON public.token_metrics USING btree (created_at DESC, address);


--
-- Name: token_metrics_flags_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX token_metrics_flags_idx ON public.token_metrics USING gin (risk_flags);


--
-- Name: token_metrics_liquidity_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX token_metrics_liquidity_idx ON public.token_metrics USING btree (liquidity_usd DESC, address);


--
-- Name: token_metrics_risk_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX token_metrics_risk_idx ON public.token_metrics USING btree (risk_score, address);


--
-- Name: token_metrics_trending_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX token_metrics_trending_idx ON public.token_metrics USING btree (trending_score DESC, address);


--
-- Name: token_metrics_volume_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX token_metrics_volume_idx ON public.token_metrics USING btree (volume24h_usd DESC, address);


--
-- Name: token_transfers_token_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX token_transfers_token_idx ON public.token_transfers USING btree (token_address, block_number);


--
-- Name: tokens_launchpad_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tokens_launchpad_idx ON public.tokens USING btree (launchpad);


--
-- Name: wallet_funding_block_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_funding_block_idx ON public.wallet_funding USING btree (block_number);


--
-- Name: wallet_funding_funder_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_funding_funder_idx ON public.wallet_funding USING btree (funder);


--
-- Name: wallet_positions_token_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_positions_token_idx ON public.wallet_positions USING btree (token_address);


--
-- Name: wallets_cluster_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallets_cluster_idx ON public.wallets USING btree (cluster_id);


--
-- Name: wallets_funder_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallets_funder_idx ON public.wallets USING btree (funder);


--
-- Name: events events_count_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_count_delete AFTER DELETE ON public.events REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.event_counts_apply();


--
-- Name: events events_count_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_count_insert AFTER INSERT ON public.events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.event_counts_apply();


--
-- Name: events events_count_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_count_truncate AFTER TRUNCATE ON public.events FOR EACH STATEMENT EXECUTE FUNCTION public.event_counts_reset();


--
-- Name: account_contracts account_contracts_account_id_accounts_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_contracts
    ADD CONSTRAINT account_contracts_account_id_accounts_id_fk FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: accounts accounts_plan_plans_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_plan_plans_id_fk FOREIGN KEY (plan) REFERENCES public.plans(id);


--
-- Name: accounts accounts_user_id_users_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_user_id_users_id_fk FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: alert_matches alert_matches_alert_id_alerts_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_matches
    ADD CONSTRAINT alert_matches_alert_id_alerts_id_fk FOREIGN KEY (alert_id) REFERENCES public.alerts(id) ON DELETE CASCADE;


--
-- Name: alerts alerts_account_id_accounts_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alerts
    ADD CONSTRAINT alerts_account_id_accounts_id_fk FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: alerts alerts_key_id_api_keys_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alerts
    ADD CONSTRAINT alerts_key_id_api_keys_id_fk FOREIGN KEY (key_id) REFERENCES public.api_keys(id) ON DELETE CASCADE;


--
-- Name: api_keys api_keys_account_id_accounts_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_account_id_accounts_id_fk FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: auth_accounts auth_accounts_user_id_users_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_accounts
    ADD CONSTRAINT auth_accounts_user_id_users_id_fk FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: auth_sessions auth_sessions_user_id_users_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_sessions
    ADD CONSTRAINT auth_sessions_user_id_users_id_fk FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: billing_customers billing_customers_account_id_accounts_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.billing_customers
    ADD CONSTRAINT billing_customers_account_id_accounts_id_fk FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: billing_meter_reports billing_meter_reports_account_id_accounts_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.billing_meter_reports
    ADD CONSTRAINT billing_meter_reports_account_id_accounts_id_fk FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: billing_subscriptions billing_subscriptions_account_id_accounts_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.billing_subscriptions
    ADD CONSTRAINT billing_subscriptions_account_id_accounts_id_fk FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: billing_subscriptions billing_subscriptions_plan_plans_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.billing_subscriptions
    ADD CONSTRAINT billing_subscriptions_plan_plans_id_fk FOREIGN KEY (plan) REFERENCES public.plans(id);


--
-- Name: notifications notifications_alert_id_alerts_id_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notifications
    ADD CONSTRAINT notifications_alert_id_alerts_id_fk FOREIGN KEY (alert_id) REFERENCES public.alerts(id) ON DELETE CASCADE;


--
-- Name: token_metrics token_metrics_address_tokens_address_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.token_metrics
    ADD CONSTRAINT token_metrics_address_tokens_address_fk FOREIGN KEY (address) REFERENCES public.tokens(address) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


