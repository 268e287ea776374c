/**
 * Runs in its own process (so the load generator does not share the server's CPU budget
 * accounting): drives one scenario with autocannon, rotating through the given paths, and
 * prints the result as one JSON line.
 */
import autocannon from "autocannon";

type Job = { baseUrl: string; paths: string[]; key: string | null; connections: number; seconds: number };

const job = JSON.parse(process.argv[2]) as Job;
let i = 0;
const result = await autocannon({
  url: job.baseUrl,
  connections: job.connections,
  duration: job.seconds,
  headers: job.key ? { authorization: `Bearer ${job.key}` } : {},
  requests: [{ setupRequest: (req) => ({ ...req, path: job.paths[i++ % job.paths.length] }) }],
});
console.log(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  }),
);
