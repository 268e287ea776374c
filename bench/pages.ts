/**
 * `npm run bench:pages`: server response time of the dashboard's pages (market overview, token
 * explorer, token page, wallet page) against the API benchmark's large fixture chain (100,000
 * tokens), with the cache of the shared views (lib/queries/shared-cache.ts) on and off in one
 * run: two servers, one each way, asked in turn, so a busy machine weighs on both alike, with
 * the database's CPU per page view of each. What a visitor without an account
 * reads is requested signed out (the shared views: the first page of each sort, each token's and
 * wallet's page); the filtered, paged explorer signed in, as an API Tier account (filters and deep
 * pages are an account's, metered, never cached). One client, rotating through many addresses,
 * sorts and filters; each response timed to its last byte.
 * Targets: p95 <= 300 ms with the cache; the cache earns >= 10% of the mean on its rows.
 * Options: --requests N per page (default 200), --database NAME (an already loaded database instead,
 * migrated and used as it is), --cache-off NAME,... (the caches the second server runs without,
 * lib/cache.ts; default sharedViews), --vs DIR (the second server is another checkout's build, its `next build`
 * done, with every cache on: before/after figures in one run), --json (the figures as one JSON line at the end).
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { connect, createDb } from "@/db/client";
import { changePlan } from "@/lib/billing/plan-change";
import { TOKEN_SORTS } from "@/lib/domain/vocab";
import { buildIfStale } from "@/scripts/embedded/web";
import { signedIn } from "@/tests/api/own-server";
import { startAppServer } from "@/tests/setup/server";
import { sample as apiSample } from "./lib/api-scenarios";
import { ensureBenchDatabase, loadedDatabase } from "./lib/bench-database";
import { cpuMs } from "./lib/cpu";
import { printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "200" },
    database: { type: "string" },
    "cache-off": { type: "string", default: "sharedViews" },
    vs: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const REQUESTS = Number(args.requests);
const WARMUP = 10;
const TARGET_P95_MS = 300;
const TARGET_GAIN = 0.1;
const say = (s: string) => console.error(`[bench:pages] ${s}`);

type Sample = { tokens: string[]; busyTokens: string[]; wallets: string[]; busyWallets: string[] };

/** Addresses to visit: a random spread, and the busiest ones (the heaviest pages), from bench:api's sample. */
async function sample(url: string): Promise<Sample> {
  const x = await apiSample(url);
  return {
    tokens: x.addresses.slice(0, 500),
    busyTokens: x.busyTokens.slice(0, 50),
    wallets: x.wallets.slice(0, 500),
    busyWallets: x.busyWallets.slice(0, 50),
  };
}

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
const FILTER_SORTS = ["trending", "newest", "liquidity", "volume", "risk_asc"];

type Scenario = { page: string; paths: string[]; signedIn?: boolean; cached: boolean };

function scenarios(x: Sample): Scenario[] {
  return [
    { page: "home /", paths: ["/"], cached: true },
    {
      page: "explorer /tokens, first page of each sort",
      paths: TOKEN_SORTS.map((sort) => `/tokens?sort=${sort}`),
      cached: true,
    },
    {
      page: "explorer /tokens, filtered and paged (signed in)",
      signedIn: true,
      cached: false,
      paths: range(100, (i) => {
        const filters = [
          `min_liquidity_usd=${(i % 10) * 1000}`,
          `max_risk_score=${40 + (i % 50)}`,
          ...(i % 3 === 0 ? ["exclude_flags=wash_trading,sybil_cluster"] : []),
          ...(i % 4 === 0 ? [`max_age_hours=${24 + i}`] : []),
        ];
        return `/tokens?sort=${FILTER_SORTS[i % FILTER_SORTS.length]}&${filters.join("&")}&page=${1 + (i % 5)}`;
      }),
    },
    { page: "token /tokens/{address}", paths: [...x.tokens, ...x.busyTokens].map((a) => `/tokens/${a}`), cached: true },
    // Where visitors gather: the most traded tokens, which many read at once.
    {
      page: "token /tokens/{address}, the 20 busiest",
      paths: x.busyTokens.slice(0, 20).map((a) => `/tokens/${a}`),
      cached: true,
    },
    {
      page: "wallet /wallets/{address}",
      paths: [...x.wallets, ...x.busyWallets].map((a) => `/wallets/${a}`),
      cached: true,
    },
  ];
}

/**
 * One page view: to the last byte. A failure streamed into a 200 (error digest), or a page that
 * asks to sign in instead of showing its data, counts as an error.
 */
async function timeRequest(url: string, cookie: string | undefined): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const res = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
  const body = await res.text();
  return {
    ms: performance.now() - started,
    ok: res.status === 200 && !body.includes("data-dgst") && !body.includes("sign-in-required"),
  };
}

/** The CPU time of each session of the benchmark's database (the servers' only: this script's idle). */
async function databaseCpu(): Promise<Map<number, number>> {
  const pids = await sql<
    { pid: number }[]
  >`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  return new Map(pids.map(({ pid }) => [pid, cpuMs(pid)]));
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const url = args.database ? await loadedDatabase(say, args.database) : await ensureBenchDatabase(say);
const sql = connect(url, { max: 1 });
const x = await sample(url);
await buildIfStale(say);
const secret = randomBytes(32).toString("base64url");
const env = { DATABASE_URL: url, LOG_LEVEL: "warn", AUTH_SECRET: secret };
// The second server: this checkout without the cache, or (--vs) another checkout as it is.
const other = args.vs ? { label: "vs", name: args.vs } : { label: "no cache", name: `no ${args["cache-off"]}` };
const [on, off] = await Promise.all([
  startAppServer({ ...env, CACHE_OFF: "" }),
  args.vs
    ? startAppServer({ ...env, CACHE_OFF: "" }, args.vs)
    : startAppServer({ ...env, CACHE_OFF: args["cache-off"]! }),
]);
const rows: Record<string, string | number>[] = [];
try {
  // One session for both servers (the same secret and database), on a plan the filtered views can run on.
  const session = await signedIn({ db: createDb(sql), sql, secret, baseUrl: on.baseUrl });
  await changePlan(createDb(sql), session.accountId, "api_tier", new Date());
  const cookie = [...session.browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  for (const sc of scenarios(x)) {
    const cookieOf = sc.signedIn ? cookie : undefined;
    for (let i = 0; i < WARMUP; i++) {
      for (const server of [on, off]) await timeRequest(server.baseUrl + sc.paths[i % sc.paths.length], cookieOf);
    }
    const times = { on: [] as number[], off: [] as number[] };
    const dbCpu = { on: 0, off: 0 };
    let errors = 0;
    // One request to each server in turn, each first every other time, so neither always follows
    // the other's work; the database's CPU over a request is that request's server's.
    for (let i = 0; i < REQUESTS; i++) {
      for (const which of i % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const)) {
        const before = await databaseCpu();
        const r = await timeRequest(
          (which === "on" ? on : off).baseUrl + sc.paths[(i * 7) % sc.paths.length],
          cookieOf,
        );
        const after = await databaseCpu();
        for (const [pid, ms] of after) dbCpu[which] += ms - (before.get(pid) ?? 0);
        times[which].push(r.ms);
        if (!r.ok) errors++;
      }
    }
    for (const t of Object.values(times)) t.sort((a, b) => a - b);
    const p95 = Math.round(percentile(times.on, 0.95));
    const gain = 1 - mean(times.on) / mean(times.off);
    rows.push({
      page: sc.page,
      requests: REQUESTS,
      "p50 ms": Math.round(percentile(times.on, 0.5)),
      "p95 ms": p95,
      "max ms": Math.round(times.on.at(-1)!),
      "mean ms": Math.round(mean(times.on)),
      [`${other.label}: p50`]: Math.round(percentile(times.off, 0.5)),
      p95: Math.round(percentile(times.off, 0.95)),
      mean: Math.round(mean(times.off)),
      "db CPU ms/view": Number((dbCpu.on / REQUESTS).toFixed(2)),
      [`${other.label}: db CPU`]: Number((dbCpu.off / REQUESTS).toFixed(2)),
      ...(args.vs
        ? { "mean, this / vs": Number((1 - gain).toFixed(3)) }
        : { "cache gain": sc.cached ? `${Math.round(gain * 100)}%` : "(not cached)" }),
      errors,
      [`p95 <= ${TARGET_P95_MS} ms`]: p95 <= TARGET_P95_MS && errors === 0 ? "yes" : "NO",
    });
    say(`${sc.page}: p95 ${p95} ms, ${args.vs ? "faster than vs" : "cache gain"} ${Math.round(gain * 100)}%`);
  }
} finally {
  await Promise.all([on.stop(), off.stop()]);
  await sql.end();
}
console.log(
  `\nDashboard pages, server response time to the last byte, one client, ${REQUESTS} requests per page and server` +
    ` (100,000-token fixture); "${other.label}": the same requests of ${other.name}, asked in turn.` +
    ` The cache must earn >= ${TARGET_GAIN * 100}% of the mean on the rows it serves.\n`,
);
printTable(rows);
if (args.json) console.log(JSON.stringify({ requests: REQUESTS, target_p95_ms: TARGET_P95_MS, results: rows }));
