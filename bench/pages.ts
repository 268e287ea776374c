/**
 * `npm run bench:pages`: server response time of the dashboard's pages (market overview, token
 * explorer, token page, wallet page) against the API benchmark's large fixture chain (100,000 tokens).
 * It requests each page as a signed-out visitor (the pages are public; dev sign-in works only on
 * the embedded defaults) from one client, rotating through many addresses and filters, and times
 * each response to its last byte. Target: p95 <= 300 ms.
 * Options: --requests N per page (default 200), --database NAME (an already loaded database instead,
 * migrated and used as it is), --json (the figures as one JSON line at the end).
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { connect } from "@/db/client";
import { buildIfStale } from "@/scripts/embedded/web";
import { startAppServer } from "@/tests/setup/server";
import { ensureBenchDatabase, loadedDatabase } from "./lib/bench-database";
import { printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: { requests: { type: "string", default: "200" }, database: { type: "string" }, json: { type: "boolean", default: false } },
});
const REQUESTS = Number(args.requests);
const WARMUP = 10;
const TARGET_P95_MS = 300;
const say = (s: string) => console.error(`[bench:pages] ${s}`);

type Sample = { tokens: string[]; busyTokens: string[]; wallets: string[]; busyWallets: string[] };

/** Addresses to visit: a random spread, and the busiest ones (the heaviest pages). */
async function sample(url: string): Promise<Sample> {
  const s = connect(url, { max: 1 });
  const col = async (q: string) => (await s.unsafe(q)).map((r) => Object.values(r)[0] as string);
  const out = {
    tokens: await col("select address from tokens order by md5(address) limit 500"),
    busyTokens: await col("select token_address from events group by 1 order by count(*) desc limit 50"),
    wallets: await col("select address from wallets order by md5(address) limit 500"),
    busyWallets: await col("select wallet_address from events group by 1 order by count(*) desc limit 50"),
  };
  await s.end();
  return out;
}

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
const SORTS = ["trending", "newest", "liquidity", "volume", "risk_asc"];

function scenarios(x: Sample): { page: string; paths: string[] }[] {
  return [
    { page: "home /", paths: ["/"] },
    {
      page: "explorer /tokens",
      paths: range(100, (i) => {
        const filters = [
          `min_liquidity_usd=${(i % 10) * 1000}`,
          `max_risk_score=${40 + (i % 50)}`,
          ...(i % 3 === 0 ? ["exclude_flags=wash_trading,sybil_cluster"] : []),
          ...(i % 4 === 0 ? [`max_age_hours=${24 + i}`] : []),
        ];
        return `/tokens?sort=${SORTS[i % SORTS.length]}&${filters.join("&")}&page=${1 + (i % 5)}`;
      }),
    },
    { page: "token /tokens/{address}", paths: [...x.tokens, ...x.busyTokens].map((a) => `/tokens/${a}`) },
    { page: "wallet /wallets/{address}", paths: [...x.wallets, ...x.busyWallets].map((a) => `/wallets/${a}`) },
  ];
}

/** One page view: to the last byte. A failure streamed into a 200 (error digest) counts as an error. */
async function timeRequest(url: string): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const res = await fetch(url, { redirect: "manual" });
  const body = await res.text();
  return { ms: performance.now() - started, ok: res.status === 200 && !body.includes("data-dgst") };
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];

const url = args.database ? await loadedDatabase(say, args.database) : await ensureBenchDatabase(say);
const x = await sample(url);
await buildIfStale(say);
const server = await startAppServer({ DATABASE_URL: url, LOG_LEVEL: "warn", AUTH_SECRET: randomBytes(32).toString("base64url") });
const rows: Record<string, string | number>[] = [];
try {
  for (const sc of scenarios(x)) {
    for (let i = 0; i < WARMUP; i++) await timeRequest(server.baseUrl + sc.paths[i % sc.paths.length]);
    const times: number[] = [];
    let errors = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const r = await timeRequest(server.baseUrl + sc.paths[(i * 7) % sc.paths.length]);
      times.push(r.ms);
      if (!r.ok) errors++;
    }
    times.sort((a, b) => a - b);
    const p95 = Math.round(percentile(times, 0.95));
    rows.push({
      page: sc.page,
      requests: REQUESTS,
      "p50 ms": Math.round(percentile(times, 0.5)),
      "p95 ms": p95,
      "max ms": Math.round(times.at(-1)!),
      errors,
      [`p95 <= ${TARGET_P95_MS} ms`]: p95 <= TARGET_P95_MS && errors === 0 ? "yes" : "NO",
    });
    say(`${sc.page}: p95 ${p95} ms`);
  }
} finally {
  await server.stop();
}
console.log(`\nDashboard pages, server response time to the last byte, one client, ${REQUESTS} requests per page (100,000-token fixture)\n`);
printTable(rows);
if (args.json) console.log(JSON.stringify({ requests: REQUESTS, target_p95_ms: TARGET_P95_MS, results: rows }));
