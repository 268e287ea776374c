/**
 * `npm run bench:api`: loads the large fixture chain into PostgreSQL through the worker's indexer, starts the
 * production server and drives each endpoint with autocannon from a second process at 10
 * connections, rotating through many distinct requests so the response cache cannot carry it.
 * Prints requests/s, p50, p99, the ratio to the trivial route, the server's and PostgreSQL's CPU
 * time per request (what a request costs, even on a busy machine), and whether totals are exact.
 * Options: --reuse (keep the bench database if it holds the whole fixture), --database NAME (an
 * already loaded database of another size instead, migrated and used as it is), --only TEXT (the
 * scenarios whose name contains it, besides the baseline), --seconds N, --json.
 * Pairs, each row measured on this server and on a second one in turn, in one run:
 *   --cache-off NAME,... (or "all"): for each cache (lib/cache.ts), a second server without it
 *     (CACHE_OFF) runs the rows the cache serves (CACHE_ROWS); the gain is what the cache earns.
 *   --vs DIR: a second server from another checkout's build (its `next build` done), every row.
 */
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { connect, createDb } from "@/db/client";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { buildIfStale } from "@/scripts/embedded/web";
import { type AppServer, startAppServer } from "@/tests/setup/server";
import { BENCH_DB, ensureBenchDatabase, loadedDatabase } from "./lib/bench-database";
import { printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    reuse: { type: "boolean", default: false },
    database: { type: "string" },
    only: { type: "string" },
    seconds: { type: "string", default: "10" },
    json: { type: "boolean", default: false },
    "cache-off": { type: "string" },
    vs: { type: "string" },
  },
});
const CONNECTIONS = 10;
const say = (s: string) => console.error(`[bench:api] ${s}`);

type Sample = {
  addresses: string[];
  wallets: string[];
  busyWallets: string[];
  busyTokens: string[];
  times: string[];
  symbols: string[];
  /** Wallets that launched tokens, the most prolific first. */
  creators: string[];
};

async function sample(url: string): Promise<Sample> {
  // Sampling is not measured: it may take its time on a busy machine (no statement timeout).
  const s = connect(url, { max: 1, connection: { statement_timeout: 0 } });
  const col = async (q: string) => (await s.unsafe(q)).map((r) => Object.values(r)[0] as string);
  const out = {
    addresses: await col("select address from tokens order by md5(address) limit 2000"),
    wallets: await col("select address from wallets order by md5(address) limit 2000"),
    busyWallets: await col("select wallet_address from events group by 1 order by count(*) desc limit 200"),
    busyTokens: await col("select token_address from events group by 1 order by count(*) desc limit 200"),
    times: await col(
      "select to_char(timestamp at time zone 'utc', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') from blocks " +
        "order by number desc offset 1000 limit 500",
    ),
    creators: await col(
      "select creator from tokens where creator is not null group by 1 order by count(*) desc, 1 limit 200",
    ),
    // What people type: the first two or three letters of a symbol.
    symbols: await col(
      "select left(symbol, 2 + (abs(hashtext(address)) % 2)) from tokens order by md5(address) limit 500",
    ),
  };
  await s.end();
  return out;
}

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

function scenarios(x: Sample): { name: string; paths: string[]; key: boolean }[] {
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
      paths: range(300, (i) => `/v1/tokens?sort=liquidity&page=${1000 + i}&limit=50`),
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

/**
 * The rows each cache of the API serves, where --cache-off measures it (the names of lib/cache.ts's
 * caches; the shared views and indexed addresses serve pages: bench:pages).
 */
const CACHE_ROWS: Record<string, string[]> = {
  responses: ["token", "wallet", "search", "events"],
  tokenRows: ["tokens "],
  listSnapshots: ["tokens ", "wallet profile", "wallet positions", "search"],
  eventBodies: ["events"],
  tokenFacts: ["wallet profile", "wallet positions"],
  openPositions: ["wallet profile", "wallet positions"],
};

/** Each list scenario's first path: the API's total must equal a count over the database. */
async function checkTotals(db: ReturnType<typeof createDb>, baseUrl: string, key: string, x: Sample) {
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
  for (const [path, query, name] of checks) {
    const res = await (await fetch(baseUrl + path, { headers: { authorization: `Bearer ${key}` } })).json();
    const [row] = await db.execute<{ count: string }>(sql.raw(query));
    exact.set(name, Number(row.count) === res.total);
  }
  return exact;
}

const dbName = args.database ?? BENCH_DB;
const url = args.database
  ? await loadedDatabase(say, args.database)
  : await ensureBenchDatabase(say, { reuse: args.reuse });
// One session, so the server's sessions are all the others on the bench database.
const s = connect(url, { max: 1 });
const db = createDb(s);
const key = await createKey(db, await ensureAccount(db, null, "api_tier"), "bench");
await db.execute(sql`update api_keys set rate_per_minute = 2000000000, rate_per_day = 2000000000 where id = ${key.id}`);
const x = await sample(url);

await buildIfStale(say);
// PostgreSQL's sizing rule, two connections per core: with more, each query of the 10
// concurrent requests wakes a backend of its own; with these, queries of several requests
// share a connection's write and the backends contend less for the two cores.
const poolMax = String(2 * availableParallelism());
const env = { DATABASE_URL: url, LOG_LEVEL: "warn", DATABASE_POOL_MAX: poolMax };
const server = await startAppServer(env);
// The first list request builds the token index; let it finish before checking totals.
await fetch(`${server.baseUrl}/v1/tokens`, { headers: { authorization: `Bearer ${key.key}` } });
await db.execute(sql`analyze event_cumulative_counts`);
const exact = await checkTotals(db, server.baseUrl, key.key, x);
type Scenario = ReturnType<typeof scenarios>[number];
type Measured = { rps: number; p50: number; p99: number; serverCpuMs: number | null; dbCpuMs: number; failed: number };

/** One scenario against `target`: a warm-up pass, then the measured one. */
async function measure(target: AppServer, sc: Scenario): Promise<Measured> {
  const job = {
    baseUrl: target.baseUrl,
    serverPid: target.pid,
    paths: sc.paths,
    key: sc.key ? key.key : null,
    connections: CONNECTIONS,
    seconds: Number(args.seconds),
  };
  const run = (j: object) =>
    execFileSync(process.execPath, ["--import", "tsx", "bench/lib/load-runner.ts", JSON.stringify(j)], {
      encoding: "utf8",
    });
  run({ ...job, seconds: 2 });
  // The database sessions, opened by the warm-up: their CPU is the database's share (a second
  // server, idle meanwhile, adds nothing).
  const dbPids = (await s`select pid from pg_stat_activity where datname = ${dbName} and pid <> pg_backend_pid()`).map(
    (r) => r.pid as number,
  );
  const r = JSON.parse(
    run({ ...job, dbPids })
      .trim()
      .split("\n")
      .at(-1)!,
  );
  say(`${sc.name}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms`);
  return { ...r, failed: r.non2xx + r.errors };
}

const cpu = (m: Measured) => (m.serverCpuMs ?? 0) + m.dbCpuMs;
const pct = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}%`;
const all = scenarios(x).filter((sc, i) => i === 0 || !args.only || sc.name.includes(args.only));

/** Each row on `server` and on `other` in turn (both warmed up). */
async function pair(other: AppServer, rows: Scenario[]) {
  const out: Record<string, string | number>[] = [];
  for (const sc of rows) {
    const [a, b] = [await measure(server, sc), await measure(other, sc)];
    out.push({
      endpoint: sc.name,
      "req/s": Math.round(a.rps),
      "req/s vs": Math.round(b.rps),
      "req/s gain": pct(a.rps / b.rps - 1),
      "CPU ms/req": Number(cpu(a).toFixed(2)),
      "CPU ms/req vs": Number(cpu(b).toFixed(2)),
      "CPU saved": pct(1 - cpu(a) / cpu(b)),
      "non-2xx": a.failed + b.failed,
    });
  }
  // What a server that failed requests said, for the reader to judge the row.
  for (const [which, target] of [
    ["this", server],
    ["vs", other],
  ] as const) {
    if (out.some((r) => r["non-2xx"] !== 0))
      say(`${which} server's output, last lines:\n${target.output().slice(-3000)}`);
  }
  return out;
}

const rows: Record<string, string | number>[] = [];
let heading: string;
try {
  if (args["cache-off"]) {
    const names = args["cache-off"] === "all" ? Object.keys(CACHE_ROWS) : args["cache-off"].split(",");
    for (const name of names) {
      if (!CACHE_ROWS[name]) throw new Error(`--cache-off: no rows for cache "${name}" (${Object.keys(CACHE_ROWS)})`);
      const off = await startAppServer({ ...env, CACHE_OFF: name });
      try {
        const served = all.filter((sc) => CACHE_ROWS[name].some((r) => sc.name.includes(r)));
        for (const r of await pair(off, served)) rows.push({ cache: name, ...r });
      } finally {
        await off.stop();
      }
    }
    heading = "each cache on (req/s, CPU ms/req) and off (vs): what it earns on the rows it serves";
  } else if (args.vs) {
    const other = await startAppServer(env, args.vs);
    try {
      rows.push(...(await pair(other, all)));
    } finally {
      await other.stop();
    }
    heading = `this checkout against ${args.vs} (vs), each row on both in turn`;
  } else {
    let baseline = 0;
    for (const sc of all) {
      const r = await measure(server, sc);
      if (!baseline) baseline = r.rps;
      rows.push({
        endpoint: sc.name,
        "req/s": Math.round(r.rps),
        "p50 ms": r.p50,
        "p99 ms": r.p99,
        "x baseline": Number((r.rps / baseline).toFixed(2)),
        "server CPU ms/req": r.serverCpuMs === null ? "" : Number(r.serverCpuMs.toFixed(2)),
        "db CPU ms/req": Number(r.dbCpuMs.toFixed(2)),
        "non-2xx": r.failed,
        "exact total": exact.has(sc.name) ? (exact.get(sc.name) ? "yes" : "NO") : "",
      });
    }
    heading = "targets: >= 0.6 x baseline, p99 <= 50 ms";
  }
} finally {
  await server.stop();
  await s.end();
}
console.log(`\nGET throughput at ${CONNECTIONS} connections, ${args.seconds} s per endpoint; ${heading}\n`);
printTable(rows);
if (args.json) console.log(JSON.stringify({ connections: CONNECTIONS, seconds: Number(args.seconds), results: rows }));
