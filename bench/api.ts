/**
 * `npm run bench:api`: loads the large fixture chain into PostgreSQL through the worker's indexer, starts the
 * production server and drives each endpoint with autocannon from a second process at 10
 * connections, rotating through many distinct requests (200 to 2,000 a row; a row of 200 recurs
 * within the response cache's second above 200 req/s, as a popular token's requests would).
 * Prints requests/s, p50, p99, the ratio to the trivial route, the server's and PostgreSQL's CPU
 * time per request (what a request costs, even on a busy machine), and whether totals are exact.
 * Options: --reuse (keep the bench database if it holds the whole fixture), --database NAME (an
 * already loaded database of another size instead, migrated and used as it is), --only TEXT (the
 * scenarios whose name contains it, besides the baseline), --seconds N, --json, --rounds N (pairs
 * only: each row measured N times on both servers, the first one first in odd rounds and the second
 * in even ones; the medians are printed).
 * Pairs, each row measured on this server and on a second one in turn, in one run:
 *   --cache-off NAME,... (or "all"): for each cache (lib/cache.ts), a second server without it
 *     (CACHE_OFF) runs the rows the cache serves (CACHE_ROWS); the gain is what the cache earns.
 *   --vs DIR: a second server from another checkout's build (its `next build` done), every row.
 */
import { parseArgs } from "node:util";
import { type AppServer, startAppServer } from "@/tests/setup/server";
import { type Scenario, scenarios } from "./lib/api-scenarios";
import { CONNECTIONS, cpuPerRequest as cpu, type Measured, openApiTarget } from "./lib/api-target";
import { BENCH_DB, ensureBenchDatabase, loadedDatabase } from "./lib/bench-database";
import { median, printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    reuse: { type: "boolean", default: false },
    database: { type: "string" },
    only: { type: "string" },
    seconds: { type: "string", default: "10" },
    json: { type: "boolean", default: false },
    "cache-off": { type: "string" },
    vs: { type: "string" },
    rounds: { type: "string", default: "1" },
  },
});
const say = (s: string) => console.error(`[bench:api] ${s}`);

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

const dbName = args.database ?? BENCH_DB;
const url = args.database
  ? await loadedDatabase(say, args.database)
  : await ensureBenchDatabase(say, { reuse: args.reuse });
const target = await openApiTarget(say, dbName, url);
const { server, env, exact } = target;
const seconds = Number(args.seconds);
const measure = (on: AppServer, sc: Scenario) => target.measure(sc, seconds, on);

const pct = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}%`;
const all = scenarios(target.sample).filter((sc, i) => i === 0 || !args.only || sc.name.includes(args.only));

/**
 * Each row on `server` and on `other` in turn (both warmed up), --rounds times, the order swapped
 * each round so that neither side always meets the moment after the other's load.
 */
async function pair(other: AppServer, rows: Scenario[]) {
  const out: Record<string, string | number>[] = [];
  const rounds = Number(args.rounds);
  for (const sc of rows) {
    const runs: [Measured[], Measured[]] = [[], []];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) runs[0].push(await measure(server, sc));
      runs[1].push(await measure(other, sc));
      if (r % 2 === 1) runs[0].push(await measure(server, sc));
    }
    const [a, b] = runs.map((m) => ({
      rps: median(m.map((x) => x.rps)),
      cpu: median(m.map(cpu)),
      failed: m.reduce((n, x) => n + x.failed, 0),
    }));
    out.push({
      endpoint: sc.name,
      "req/s": Math.round(a.rps),
      "req/s vs": Math.round(b.rps),
      "req/s gain": pct(a.rps / b.rps - 1),
      "CPU ms/req": Number(a.cpu.toFixed(2)),
      "CPU ms/req vs": Number(b.cpu.toFixed(2)),
      "CPU saved": pct(1 - a.cpu / b.cpu),
      "non-2xx": a.failed + b.failed,
    });
  }
  // What a server that failed requests said, for the reader to judge the row.
  for (const [which, side] of [
    ["this", server],
    ["vs", other],
  ] as const) {
    if (out.some((r) => r["non-2xx"] !== 0))
      say(`${which} server's output, last lines:\n${side.output().slice(-3000)}`);
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
    heading = `this checkout against ${args.vs} (vs), each row on both in turn, median of ${args.rounds} round(s)`;
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
  await target.close();
}
console.log(`\nGET throughput at ${CONNECTIONS} connections, ${args.seconds} s per endpoint; ${heading}\n`);
printTable(rows);
if (args.json) console.log(JSON.stringify({ connections: CONNECTIONS, seconds: Number(args.seconds), results: rows }));
