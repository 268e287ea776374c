/**
 * `npm run bench:scale`: whether what a request costs stays flat as the data grows. Drives every
 * endpoint of bench:api (same scenarios, same measurement) against two loaded databases of the
 * same chain shape at two sizes, a server on each, each row on the smaller and the larger in turn,
 * and prints per endpoint the server's and PostgreSQL's CPU per request at each size, their ratio
 * (target <= 1.2), whether totals are exact at both sizes and how many responses were not 2xx.
 *
 * Options: --small NAME, --large NAME: the two databases, loaded and used as they are (migrated).
 * The defaults are the sizes: bench:api's database (the large fixture, 5,000,000 actions,
 * 100,000 tokens; `npm run bench:api` loads it) and `oci_bench_fixture_25m` (25,000,000 actions,
 * 500,000 tokens), which nothing loads by itself (hours on a small machine):
 *   DATABASE_URL=…/oci_bench_fixture_25m node --max-semi-space-size=256 --max-old-space-size=16384 --import tsx scripts/fixtures/cli.ts --size large --seed 42 \
 *     --tokens 500000 --wallets 1000000 --events 25000000 --days 7 --bulk
 * --seconds N per measurement (10), --rounds N (each row measured N times on both; the median is
 * printed), --only TEXT (the scenarios whose name contains it, besides the baseline), --json.
 * The servers run without the response cache (lib/api/cache.ts, CACHE_OFF=responses) unless
 * --response-cache: its entries live a second, so how many requests it answers follows how many
 * a second the server serves (a row of 200 paths recurs within the second above 200 req/s), not
 * the data's size, and a size that is slower per request would also lose hits and look slower
 * still. What is measured is then what a request costs to answer.
 * The busiest wallets, tokens and creators a scenario asks about are the 200 first on the smaller
 * side and the same ranks by share on the larger (every 5th of the 1,000 first at 5x the events):
 * what grows with the data is then the tables, not the entities asked about. --top asks both
 * about their 200 first, whose sizes grow with the data.
 */
import { parseArgs } from "node:util";
import { connect } from "@/db/client";
import { type Scenario, scenarios } from "./lib/api-scenarios";
import { type ApiTarget, CONNECTIONS, type Measured, openApiTarget } from "./lib/api-target";
import { BENCH_DB, loadedDatabase } from "./lib/bench-database";
import { median, printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    small: { type: "string", default: BENCH_DB },
    large: { type: "string", default: `${BENCH_DB}_25m` },
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "1" },
    only: { type: "string" },
    top: { type: "boolean", default: false },
    "response-cache": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const say = (s: string) => console.error(`[bench:scale] ${s}`);
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);
/** The bound on how much a request's cost may grow from the smaller size to the larger. */
const TARGET_RATIO = 1.2;

/** What a database holds, for the reader to see the two sizes. */
async function size(url: string) {
  const s = connect(url, { max: 1, connection: { statement_timeout: 0 } });
  const [r] = await s<{ tokens: number; wallets: number; events: number; pool_reserves: number }[]>`
    select (select count(*)::int from tokens) as tokens, (select count(*)::int from wallets) as wallets,
           (select count(*)::int from events) as events, (select count(*)::int from pool_reserves) as pool_reserves`;
  await s.end();
  return r;
}

const serverSettings: Record<string, string> = args["response-cache"] ? {} : { CACHE_OFF: "responses" };
const sides: ApiTarget[] = [];
const rows: Record<string, string | number>[] = [];
const sizes: Record<string, string | number>[] = [];
try {
  const urls: string[] = [];
  for (const name of [args.small, args.large]) {
    urls.push(await loadedDatabase(say, name));
    sizes.push({ database: name, ...(await size(urls.at(-1)!)) });
  }
  // The larger side is asked about the same ranks by share (api-scenarios.ts sample), unless --top.
  const stride = args.top ? 1 : Math.max(1, Math.round(Number(sizes[1].events) / Number(sizes[0].events)));
  sizes[0]["busiest sampled"] = "200 first";
  sizes[1]["busiest sampled"] = stride === 1 ? "200 first" : `every ${stride}th of the ${200 * stride} first`;
  const measured = (row: string) => !args.only || row.includes(args.only);
  for (const [i, name] of [args.small, args.large].entries()) {
    sides.push(await openApiTarget(say, name, urls[i], i === 0 ? 1 : stride, serverSettings, measured));
  }
  const [small, large] = sides;
  // The same endpoint at both sizes, each with requests sampled from its own database.
  const wanted = (sc: Scenario, i: number) => i === 0 || measured(sc.name);
  const pairs = scenarios(small.sample)
    .map((sc, i) => [sc, scenarios(large.sample)[i]] as const)
    .filter(([sc], i) => wanted(sc, i));
  for (const [a, b] of pairs) {
    const runs: [Measured[], Measured[]] = [[], []];
    // Alternated, so both sizes meet the machine's load of the same moments.
    for (let r = 0; r < rounds; r++) {
      runs[0].push(await small.measure(a, seconds));
      runs[1].push(await large.measure(b, seconds));
    }
    const [server, db] = [
      runs.map((m) => median(m.map((x) => x.serverCpuMs ?? 0))),
      runs.map((m) => median(m.map((x) => x.dbCpuMs))),
    ];
    const total = [server[0] + db[0], server[1] + db[1]];
    const ratio = total[1] / total[0];
    const exact = sides.map((t) => t.exact.get(a.name));
    rows.push({
      endpoint: a.name,
      "server ms S": server[0],
      "server ms L": server[1],
      "db ms S": db[0],
      "db ms L": db[1],
      "CPU ms S": total[0],
      "CPU ms L": total[1],
      "L / S": ratio,
      [`<= ${TARGET_RATIO}`]: ratio <= TARGET_RATIO ? "yes" : "NO",
      "exact total": exact[0] === undefined ? "" : exact.every(Boolean) ? "yes" : "NO",
      "non-2xx": runs.flat().reduce((n, m) => n + m.failed, 0),
    });
  }
} finally {
  for (const t of sides) await t.close();
}
console.log("\nthe two sizes (S, L)\n");
printTable(sizes);
console.log(
  `\nCPU per request (server + PostgreSQL, ms) at ${CONNECTIONS} connections, ${seconds} s per measurement, ` +
    `median of ${rounds} alternated round(s), the response cache ${args["response-cache"] ? "on" : "off"}; ` +
    `target: L / S <= ${TARGET_RATIO}, totals exact, every response 2xx\n`,
);
printTable(rows);
if (args.json) console.log(JSON.stringify({ connections: CONNECTIONS, seconds, rounds, sizes, results: rows }));
