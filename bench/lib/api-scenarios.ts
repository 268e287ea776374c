/**
 * The API benchmarks' requests (bench:api, bench:scale): what they sample from a loaded database,
 * the scenario of each endpoint (200 to 2,000 distinct requests; bench:scale runs without the
 * response cache, whose one-second entries those of 200 outlive above 200 req/s),
 * and the check that each list's `total` equals a count over the database.
 */
import { sql } from "drizzle-orm";
import { connect, type createDb } from "@/db/client";

export type Sample = {
  addresses: string[];
  wallets: string[];
  busyWallets: string[];
  busyTokens: string[];
  times: string[];
  symbols: string[];
  /** Wallets that launched tokens, the most prolific first. */
  creators: string[];
  /** How many tokens the database holds: where a deep page of the list is. */
  tokens: number;
};

/**
 * What a scenario's requests are about. The busiest wallets, tokens and creators are the 200 first
 * by activity, or with `stride` n every n-th of the 200 × n first: the same ranks by share of a
 * database n times larger, so two sizes are asked about entities alike (bench:scale).
 */
export async function sample(url: string, stride = 1): Promise<Sample> {
  // Sampling is not measured: it may take its time on a busy machine (no statement timeout).
  const s = connect(url, { max: 1, connection: { statement_timeout: 0 } });
  const col = async (q: string) => (await s.unsafe(q)).map((r) => Object.values(r)[0] as string);
  const busiest = async (q: string) => (await col(`${q} limit ${200 * stride}`)).filter((_, i) => i % stride === 0);
  const out = {
    addresses: await col("select address from tokens order by md5(address) limit 2000"),
    wallets: await col("select address from wallets order by md5(address) limit 2000"),
    busyWallets: await busiest("select wallet_address from events group by 1 order by count(*) desc, 1"),
    busyTokens: await busiest("select token_address from events group by 1 order by count(*) desc, 1"),
    times: await col(
      "select to_char(timestamp at time zone 'utc', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') from blocks " +
        "order by number desc offset 1000 limit 500",
    ),
    creators: await busiest(
      "select creator from tokens where creator is not null group by 1 order by count(*) desc, 1",
    ),
    // What people type: the first two or three letters of a symbol.
    symbols: await col(
      "select left(symbol, 2 + (abs(hashtext(address)) % 2)) from tokens order by md5(address) limit 500",
    ),
    tokens: Number((await col("select count(*) from tokens"))[0]),
  };
  await s.end();
  return out;
}

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

export type Scenario = { name: string; paths: string[]; key: boolean };

/**
 * The i-th deep page of 50 tokens: pages in the list's second half (from page 1,000 at 100,000
 * tokens), so that two sizes are both asked for full pages at the same depth by share.
 */
function deepPage(tokens: number, i: number): number {
  const pages = Math.floor(tokens / 50);
  const first = Math.floor(pages / 2);
  return first + (i % Math.max(1, pages - first - 1));
}

/** Every endpoint's scenario, the baseline (the trivial route) first. */
export function scenarios(x: Sample): Scenario[] {
  return [
    { name: "baseline GET /v1/health", paths: ["/v1/health"], key: false },
    { name: "tokens trending", paths: range(200, (i) => `/v1/tokens?limit=${50 + (i % 150)}`), key: true },
    {
      name: "tokens liquidity+risk filter",
      paths: range(
        300,
        (i) => `/v1/tokens?sort=liquidity&min_liquidity_usd=${i * 100}&max_risk_score=${30 + (i % 60)}`,
      ),
      key: true,
    },
    {
      name: "tokens newest, age+flags",
      paths: range(
        300,
        (i) => `/v1/tokens?sort=newest&max_age_hours=${1 + i}&exclude_flags=wash_trading,sybil_cluster`,
      ),
      key: true,
    },
    {
      name: "tokens volume, mcap range",
      paths: range(
        300,
        (i) => `/v1/tokens?sort=volume&min_market_cap_usd=${i * 1000}&max_market_cap_usd=${(i + 1) * 1_000_000}`,
      ),
      key: true,
    },
    {
      name: "tokens risk_asc, growth",
      paths: range(300, (i) => `/v1/tokens?sort=risk_asc&min_holder_growth_1h_pct=${(i % 50) - 10}`),
      key: true,
    },
    {
      name: "tokens deep page",
      paths: range(300, (i) => `/v1/tokens?sort=liquidity&page=${deepPage(x.tokens, i)}&limit=50`),
      key: true,
    },
    { name: "token profile", paths: x.addresses.map((a) => `/v1/tokens/${a}`), key: true },
    { name: "wallet profile", paths: x.wallets.map((a) => `/v1/wallets/${a}`), key: true },
    { name: "token ohlcv 1h", paths: x.busyTokens.map((a) => `/v1/tokens/${a}/ohlcv?interval=1h`), key: true },
    {
      name: "token ohlcv 5m, range",
      paths: x.busyTokens.map((a, i) => `/v1/tokens/${a}/ohlcv?interval=5m&from=${x.times[i % x.times.length]}`),
      key: true,
    },
    {
      name: "token holders",
      paths: x.busyTokens.map((a, i) => `/v1/tokens/${a}/holders?page=${1 + (i % 3)}`),
      key: true,
    },
    { name: "token pools", paths: x.addresses.map((a) => `/v1/tokens/${a}/pools`), key: true },
    { name: "token security", paths: x.addresses.map((a) => `/v1/tokens/${a}/security`), key: true },
    { name: "wallet positions", paths: x.busyWallets.map((a) => `/v1/wallets/${a}/positions`), key: true },
    {
      name: "wallet launches",
      // Page sizes vary too: a fixture has fewer creators than the rotation needs distinct requests.
      paths: range(300, (i) => `/v1/wallets/${x.creators[i % x.creators.length]}/launches?limit=${1 + (i % 50)}`),
      key: true,
    },
    { name: "search symbol prefix", paths: x.symbols.map((q) => `/v1/search?q=${encodeURIComponent(q)}`), key: true },
    { name: "search address prefix", paths: x.wallets.map((a) => `/v1/search?q=${a.slice(0, 8)}`), key: true },
    { name: "events (no filter)", paths: range(300, (i) => `/v1/events?limit=${50 + (i % 150)}`), key: true },
    { name: "events by token", paths: x.busyTokens.map((a) => `/v1/events?token_address=${a}`), key: true },
    { name: "events by wallet", paths: x.busyWallets.map((a) => `/v1/events?wallet_address=${a}`), key: true },
    { name: "events since", paths: x.times.map((t) => `/v1/events?since=${t}`), key: true },
    { name: "events deep page", paths: range(300, (i) => `/v1/events?page=${2000 + i}&limit=50`), key: true },
  ];
}

/** Each list scenario's first path: the API's total must equal a count over the database. */
export async function checkTotals(
  db: ReturnType<typeof createDb>,
  baseUrl: string,
  key: string,
  x: Sample,
  checked: (row: string) => boolean,
) {
  const checks: [string, string, string][] = [
    ["/v1/events", "select count(*) from events", "events (no filter)"],
    [`/v1/events?since=${x.times[0]}`, `select count(*) from events where timestamp > '${x.times[0]}'`, "events since"],
    [
      `/v1/events?token_address=${x.busyTokens[0]}`,
      `select count(*) from events where token_address = '${x.busyTokens[0]}'`,
      "events by token",
    ],
    [
      `/v1/tokens/${x.busyTokens[0]}/holders`,
      `select count(*) from balances b
        where b.token_address = '${x.busyTokens[0]}' and b.amount > 0 and b.holder <> b.token_address
         and b.holder not in ('0x0000000000000000000000000000000000000000',
                              '0x000000000000000000000000000000000000dead')
         and not exists (select 1 from pools p where p.address = b.holder)
         and not exists (select 1 from chain_contracts c
                          where c.address = b.holder and c.role in ('position_manager', 'locker'))`,
      "token holders",
    ],
    [
      `/v1/wallets/${x.busyWallets[0]}/positions`,
      `select count(*) from wallet_positions where wallet = '${x.busyWallets[0]}'`,
      "wallet positions",
    ],
    [
      `/v1/wallets/${x.creators[0]}/launches`,
      `select count(*) from tokens where creator = '${x.creators[0]}'`,
      "wallet launches",
    ],
    [
      `/v1/tokens/${x.addresses[0]}/pools`,
      `select count(*) from pools where token0 = '${x.addresses[0]}' or token1 = '${x.addresses[0]}'`,
      "token pools",
    ],
    [
      `/v1/search?q=${encodeURIComponent(x.symbols[0])}`,
      `select count(*) from tokens where lower(symbol) like lower('${x.symbols[0].replace(/'/g, "''")}') || '%'
          or lower(name) like lower('${x.symbols[0].replace(/'/g, "''")}') || '%'`,
      "search symbol prefix",
    ],
    [
      "/v1/tokens?sort=liquidity&min_liquidity_usd=0&max_risk_score=30",
      "select count(*) from token_metrics where liquidity_usd >= 0 and risk_score <= 30",
      "tokens liquidity+risk filter",
    ],
  ];
  const exact = new Map<string, boolean>();
  for (const [path, query, name] of checks.filter(([, , name]) => checked(name))) {
    const res = await (await fetch(baseUrl + path, { headers: { authorization: `Bearer ${key}` } })).json();
    const [row] = await db.execute<{ count: string }>(sql.raw(query));
    exact.set(name, Number(row.count) === res.total);
  }
  return exact;
}
