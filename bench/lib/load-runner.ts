/**
 * Runs in its own process (so the load generator does not share the server's CPU budget
 * accounting): drives one scenario with autocannon, rotating through the given paths, and
 * prints the result as one JSON line.
 */
import autocannon from "autocannon";
import { cpuMs } from "./cpu";

type Job = {
  baseUrl: string;
  paths: string[];
  key: string | null;
  connections: number;
  seconds: number;
  serverPid?: number;
  dbPids?: number[];
};

const job = JSON.parse(process.argv[2]) as Job;
const databaseCpuMs = () => (job.dbPids ?? []).map((pid) => cpuMs(pid));
let i = 0;
const [server0, db0] = [job.serverPid ? cpuMs(job.serverPid) : 0, databaseCpuMs()];
const result = await autocannon({
  url: job.baseUrl,
  connections: job.connections,
  duration: job.seconds,
  headers: job.key ? { authorization: `Bearer ${job.key}` } : {},
  requests: [{ setupRequest: (req) => ({ ...req, path: job.paths[i++ % job.paths.length] }) }],
});
const n = result.requests.total || 1;
console.log(
  JSON.stringify({
    serverCpuMs: job.serverPid ? (cpuMs(job.serverPid) - server0) / n : null,
    // A session that ended meanwhile (a pool's idle timeout) reads 0: what it used is unknown, not negative.
    dbCpuMs: databaseCpuMs().reduce((sum, end, i) => sum + (end ? end - db0[i] : 0), 0) / n,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  }),
);
