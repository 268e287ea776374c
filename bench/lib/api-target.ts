/**
 * One loaded database behind the production server, as the API benchmarks drive it: a bench key
 * without limits, the sample its scenarios are made of, whether its lists' totals are exact, and
 * the measurement of a scenario (autocannon in a second process; CPU per request of the server and
 * of its PostgreSQL sessions).
 */
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { sql } from "drizzle-orm";
import { connect, createDb } from "@/db/client";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { buildIfStale } from "@/scripts/embedded/web";
import { type AppServer, startAppServer } from "@/tests/setup/server";
import { checkTotals, type Sample, type Scenario, sample } from "./api-scenarios";

export const CONNECTIONS = 10;

export type Measured = {
  rps: number;
  p50: number;
  p99: number;
  serverCpuMs: number | null;
  dbCpuMs: number;
  failed: number;
};

/** Server and database CPU per request, ms. */
export const cpuPerRequest = (m: Measured) => (m.serverCpuMs ?? 0) + m.dbCpuMs;

export type ApiTarget = {
  dbName: string;
  server: AppServer;
  /** What a second server on the same database starts with (a variant's settings on top). */
  env: Record<string, string>;
  sample: Sample;
  /** Per list scenario: whether its first request's `total` equals a count over the database. */
  exact: Map<string, boolean>;
  /** One scenario against `on` (this target's server unless given): a warm-up pass, then the measured one. */
  measure: (sc: Scenario, seconds: number, on?: AppServer) => Promise<Measured>;
  close: () => Promise<void>;
};

/**
 * Starts a server on the database `dbName` (at `url`, loaded and migrated) and prepares its
 * scenarios (`stride`: how they sample the busiest entities, api-scenarios.ts); `settings`: the
 * server's environment on top of the benchmark's.
 */
export async function openApiTarget(
  say: (line: string) => void,
  dbName: string,
  url: string,
  stride = 1,
  settings: Record<string, string> = {},
  /** The rows whose totals are checked (all by default): a run of some rows needs only their data. */
  checked: (row: string) => boolean = () => true,
): Promise<ApiTarget> {
  // One session, so the server's sessions are all the others on the database.
  const s = connect(url, { max: 1 });
  const db = createDb(s);
  const key = await createKey(db, await ensureAccount(db, null, "api_tier"), "bench");
  await db.execute(
    sql`update api_keys set rate_per_minute = 2000000000, rate_per_day = 2000000000 where id = ${key.id}`,
  );
  const x = await sample(url, stride);
  await buildIfStale(say);
  // PostgreSQL's sizing rule, two connections per core: with more, each query of the 10
  // concurrent requests wakes a backend of its own; with these, queries of several requests
  // share a connection's write and the backends contend less for the two cores.
  const env = {
    DATABASE_URL: url,
    LOG_LEVEL: "warn",
    DATABASE_POOL_MAX: String(2 * availableParallelism()),
    ...settings,
  };
  const server = await startAppServer(env);
  // The first list request builds the token index; let it finish before checking totals.
  await fetch(`${server.baseUrl}/v1/tokens`, { headers: { authorization: `Bearer ${key.key}` } });
  await db.execute(sql`analyze event_cumulative_counts`);
  const exact = await checkTotals(db, server.baseUrl, key.key, x, checked);

  const measure = async (sc: Scenario, seconds: number, on = server): Promise<Measured> => {
    const job = {
      baseUrl: on.baseUrl,
      serverPid: on.pid,
      paths: sc.paths,
      key: sc.key ? key.key : null,
      connections: CONNECTIONS,
      seconds,
    };
    const run = (j: object) =>
      execFileSync(process.execPath, ["--import", "tsx", "bench/lib/load-runner.ts", JSON.stringify(j)], {
        encoding: "utf8",
      });
    run({ ...job, seconds: 2 });
    // The database sessions, opened by the warm-up: their CPU is the database's share (a second
    // server, idle meanwhile, adds nothing).
    const dbPids = (
      await s`select pid from pg_stat_activity where datname = ${dbName} and pid <> pg_backend_pid()`
    ).map((r) => r.pid as number);
    const r = JSON.parse(
      run({ ...job, dbPids })
        .trim()
        .split("\n")
        .at(-1)!,
    );
    say(`${dbName}, ${sc.name}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms`);
    return { ...r, failed: r.non2xx + r.errors };
  };

  return {
    dbName,
    server,
    env,
    sample: x,
    exact,
    measure,
    close: async () => {
      await server.stop();
      await s.end();
    },
  };
}
