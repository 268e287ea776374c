/**
 * `npm run bench:token-list`: what the token list's in-memory read model costs per query as the
 * number of tokens grows, without loading a chain (bench:scale needs two loaded fixtures; its
 * larger, 500,000 tokens, takes hours). For each size it fills a database of its own with that
 * many tokens and metrics (deterministic pseudo-random values shaped like the fixture's: created
 * over 7 days, liquidity and market caps over many orders of magnitude, integer risk scores, a
 * tenth flagged per flag), builds the snapshot through the product's code and runs the token list
 * rows of bench:scale through `queryTokenList` in this process. It prints per row the process CPU
 * per query at each size and their ratio, and the CPU of each row's first query (what it derives
 * from the snapshot on first use: sort orders, filter indexes), and the snapshot's build.
 * A snapshot is built for every data version (each worker write), so it also prints what a build
 * costs the process and its database session: a whole read (a new process's first build), and a
 * build from the last snapshot after a block's writes (BLOCK rows rewritten, new tokens among them,
 * removed again afterwards); then what the rows' first queries and a first search on it cost, and
 * the version's total in the process.
 *
 * Options: --tokens A,B (100000,500000: bench:scale's two sizes), --seconds N per row and size (3),
 * --keep (leave the databases, named bench_token_list_<n>, for the next run).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { connect, createDb, type Db } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { tokenListQuery } from "@/lib/api/schemas/tokens";
import { pickTokenFilter } from "@/lib/domain/token-filter";
import { queryTokenList, snapshotAt } from "@/lib/queries/token-list-index";
import { searchTokenIndex } from "@/lib/queries/token-search-index";
import { databaseUrl, serverUrl } from "@/tests/setup/database";
import { scenarios } from "./lib/api-scenarios";
import { cpuMs as cpuMsOf } from "./lib/cpu";
import { printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    tokens: { type: "string", default: "100000,500000" },
    seconds: { type: "string", default: "3" },
    keep: { type: "boolean", default: false },
  },
});
const sizes = args.tokens.split(",").map(Number);
const seconds = Number(args.seconds);
/** The time the tokens' ages are measured at: the end of their 7 days. */
const NOW = new Date("2026-01-08T00:00:00Z");

type ListQuery = Omit<Parameters<typeof queryTokenList>[2], "after">;
type Row = { name: string; queries: ListQuery[] };

/**
 * bench:scale's token list rows (bench/lib/api-scenarios.ts) at `tokens` tokens, each request
 * parsed as the API parses it: the same queries, written once.
 */
function rowsFor(tokens: number): Row[] {
  const sample = { addresses: [], wallets: [], busyWallets: [], busyTokens: [], times: [], symbols: [], creators: [] };
  return scenarios({ ...sample, tokens })
    .filter((sc) => sc.name.startsWith("tokens "))
    .map((sc) => ({
      name: sc.name,
      queries: sc.paths.map((path) => {
        const q = tokenListQuery.parse(Object.fromEntries(new URL(path, "http://bench").searchParams));
        return { filter: pickTokenFilter(q), sort: q.sort, page: q.page, limit: q.limit };
      }),
    }));
}

async function fill(url: string, n: number): Promise<void> {
  const s = postgres(url, { max: 1, onnotice: () => {} });
  await s.begin(async (t) => {
    await t`select setseed(0.42)`;
    await t`
      insert into tokens (address, name, symbol, total_supply, launchpad, created_block, created_at)
      select '0x' || lpad(to_hex(i), 40, '0'), 'Token ' || i, 'T' || i, 1e24, 'bench', i,
             ${NOW} - random() * interval '7 days'
      from generate_series(1, ${n}::int) i`;
    await t`
      insert into token_metrics (address, created_at, price_usd, market_cap_usd, liquidity_usd, volume_24h_usd,
        volume_1h_usd, holder_count, holder_growth_1h_pct, trending_score, risk_score, risk_flags)
      select address, created_at, exp(random() * 10 - 12), exp(random() * 20), exp(random() * 16),
             case when random() < 0.4 then 0 else exp(random() * 14) end, case when random() < 0.7 then 0 else exp(random() * 10) end,
             1 + floor(random() * 2000), case when random() < 0.6 then 0 else random() * 120 - 20 end,
             random() * 100, floor(random() * 101),
             array_remove(array[case when random() < 0.1 then 'wash_trading' end,
               case when random() < 0.1 then 'liquidity_pulled' end, case when random() < 0.1 then 'concentrated_ownership' end,
               case when random() < 0.1 then 'sybil_cluster' end, case when random() < 0.1 then 'smart_money_exiting' end], null)
      from tokens`;
  });
  await s.end();
}

/** The database of `n` tokens, filled unless a kept one holds them (migrated either way). */
async function databaseOf(n: number): Promise<string> {
  const name = `bench_token_list_${n}`;
  const url = databaseUrl(name);
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
  const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
  if (exists) {
    const s = postgres(url, { max: 1, onnotice: () => {} });
    const [{ count }] = await s<{ count: number }[]>`select count(*)::int from token_metrics`;
    await s.end();
    if (count === n) {
      await admin.end();
      await runMigrations(url);
      return url;
    }
  }
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  await runMigrations(url);
  await fill(url, n);
  return url;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU ms of the row's first query on the snapshot, then per query over `seconds`. */
async function measure(db: Db, version: number, { queries }: Row): Promise<{ first: number; each: number }> {
  let start = cpuMs();
  await queryTokenList(db, version, queries[0], NOW);
  const first = cpuMs() - start;
  let done = 0;
  start = cpuMs();
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) await queryTokenList(db, version, queries[++done % queries.length], NOW);
  return { first, each: (cpuMs() - start) / done };
}

/** A block's writes to token_metrics: rows rewritten, and how many of them are new tokens. */
const BLOCK = { rows: 500, added: 50 };
/** Builds measured per kind and size. */
const BUILDS = 5;

/**
 * A build's CPU (process, database session), its wall time (how long requests get the last
 * snapshot meanwhile); then the CPU of the first list queries and the first search on it.
 */
type BuildCost = {
  /** The longest the event loop was held (ms): how long a request arriving meanwhile waited. */
  stall: number;
  process: number;
  database: number;
  wall: number;
  rows: number;
  firstQueries: number;
  firstSearch: number;
};

/** `work`'s result, and the longest the event loop was held while it ran (ms). */
async function stalled<T>(work: () => Promise<T>): Promise<[T, number]> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const result = await work();
  // The delay is recorded when its timer fires: after a hold that ended the work, too.
  await sleep(3);
  delay.disable();
  return [result, delay.max / 1e6];
}

/** Process and database-session CPU ms of `build` on a client of one connection. */
async function buildCost(client: postgres.Sql, build: () => Promise<{ rowsRead: number }>): Promise<BuildCost> {
  const [{ pid }] = await client<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const [process0, database0, wall0] = [cpuMs(), cpuMsOf(pid), performance.now()];
  let wall = 0;
  const [{ rowsRead }, stall] = await stalled(async () => {
    const built = await build();
    wall = performance.now() - wall0;
    return built;
  });
  const cost = { process: cpuMs() - process0, database: cpuMsOf(pid) - database0, wall, rows: rowsRead };
  return { ...cost, stall, firstQueries: 0, firstSearch: 0 };
}

/**
 * Process CPU ms of each row's first query on the snapshot of `version` (what it derives: sort
 * orders, filter indexes), and of a first search (its name index: symbols and names sorted).
 */
async function firstQueries(
  db: Db,
  version: number,
  rows: Row[],
): Promise<Pick<BuildCost, "firstQueries" | "firstSearch" | "stall">> {
  let start = cpuMs();
  const [, queriesStall] = await stalled(async () => {
    for (const row of rows) await queryTokenList(db, version, row.queries[0], NOW);
  });
  const firstQueries = cpuMs() - start;
  start = cpuMs();
  const [, searchStall] = await stalled(() => searchTokenIndex(db, version, "t12", false, { offset: 0, limit: 20 }));
  return { firstQueries, firstSearch: cpuMs() - start, stall: Math.max(queriesStall, searchStall) };
}

/** A build's cost with its first queries': the longest stall of either. */
const withFirst = (build: BuildCost, first: Pick<BuildCost, "firstQueries" | "firstSearch" | "stall">): BuildCost => ({
  ...build,
  ...first,
  stall: Math.max(build.stall, first.stall),
});

const meanCost = (costs: BuildCost[]): BuildCost => {
  const mean = (f: keyof BuildCost) => costs.reduce((a, c) => a + c[f], 0) / costs.length;
  return {
    stall: Math.max(...costs.map((c) => c.stall)),
    process: mean("process"),
    database: mean("database"),
    wall: mean("wall"),
    rows: mean("rows"),
    firstQueries: mean("firstQueries"),
    firstSearch: mean("firstSearch"),
  };
};

/** A data version's build: whole (each on a new client, as a new process builds) and after a block. */
async function versionBuilds(url: string, rows: Row[]): Promise<{ whole: BuildCost; afterBlock: BuildCost }> {
  const whole: BuildCost[] = [];
  for (let i = 0; i < BUILDS; i++) {
    const client = connect(url, { max: 1 });
    const db = createDb(client);
    const cost = await buildCost(client, () => snapshotAt(db, 1));
    whole.push(withFirst(cost, await firstQueries(db, 1, rows)));
    await client.end();
  }
  const client = connect(url, { max: 1 });
  const db = createDb(client);
  // As a serving process has: the rows and a search used on the last snapshot (what it derived carries over).
  await snapshotAt(db, 1);
  await firstQueries(db, 1, rows);
  const writer = postgres(url, { max: 1, onnotice: () => {} });
  const afterBlock: BuildCost[] = [];
  for (let i = 0; i < BUILDS; i++) {
    // New tokens anywhere in address order (created_block 0 marks them), and rows of others rewritten.
    await writer`insert into tokens (address, name, symbol, total_supply, launchpad, created_block, created_at)
                 select '0x' || left(md5(${`${i}:`} || k) || md5(k || ${`:${i}`}), 40), 'New', 'NEW', 1e24, 'bench', 0, ${NOW}
                   from generate_series(1, ${BLOCK.added}::int) k`;
    await writer`insert into token_metrics (address, created_at) select address, ${NOW} from tokens where created_block = 0
                 on conflict do nothing`;
    await writer`update token_metrics set liquidity_usd = liquidity_usd
                  where address in (select address from tokens where created_block > 0 order by random() limit ${BLOCK.rows - BLOCK.added})`;
    const cost = await buildCost(client, () => snapshotAt(db, i + 2));
    afterBlock.push(withFirst(cost, await firstQueries(db, i + 2, rows)));
  }
  await writer`delete from tokens where created_block = 0`;
  await writer.end();
  await client.end();
  return { whole: meanCost(whole), afterBlock: meanCost(afterBlock) };
}

const results = new Map<string, { first: number; each: number }[]>();
const builds: number[] = [];
const versions: Record<string, string | number>[] = [];
for (const [k, n] of sizes.entries()) {
  const url = await databaseOf(n);
  const client = connect(url, { max: 2 });
  const db = createDb(client);
  const start = cpuMs();
  await snapshotAt(db, 1);
  builds.push(cpuMs() - start);
  const rows = rowsFor(n);
  for (const row of rows) results.set(row.name, [...(results.get(row.name) ?? []), await measure(db, 1, row)]);
  await client.end();
  const { whole, afterBlock } = await versionBuilds(url, rows);
  versions.push({
    tokens: n,
    "whole: process ms": whole.process,
    "whole: database ms": whole.database,
    "whole: wall ms": whole.wall,
    "whole: first queries ms": whole.firstQueries,
    "whole: first search ms": whole.firstSearch,
    "whole: longest stall ms": whole.stall,
    "after a block: process ms": afterBlock.process,
    "after a block: database ms": afterBlock.database,
    "after a block: wall ms": afterBlock.wall,
    "after a block: first queries ms": afterBlock.firstQueries,
    "after a block: first search ms": afterBlock.firstSearch,
    "after a block: process total ms": afterBlock.process + afterBlock.firstQueries + afterBlock.firstSearch,
    "after a block: longest stall ms": afterBlock.stall,
    "after a block: rows read": afterBlock.rows,
  });
  console.log(`measured ${n.toLocaleString("en")} tokens (${k + 1} of ${sizes.length})`);
}
if (!args.keep) {
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
  for (const n of sizes) await admin.unsafe(`drop database if exists bench_token_list_${n} with (force)`);
  await admin.end();
}

const [small, large] = sizes;
console.log(`\ntoken list queries in process, CPU ms per query, ${seconds} s per row and size`);
console.log(`snapshot build, process CPU ms: ${builds.map((b) => b.toFixed(0)).join(" / ")}\n`);
printTable(
  [...results].map(([name, [s, l]]) => {
    return {
      row: name,
      [`ms at ${small}`]: s.each,
      [`ms at ${large}`]: l.each,
      "L / S": l.each / s.each,
      [`first ms at ${small}`]: s.first,
      [`first ms at ${large}`]: l.first,
    };
  }),
);

console.log(
  `\na data version's snapshot build, CPU ms (mean of ${BUILDS}): a whole read, and a build from the last snapshot after a block (${BLOCK.rows} rows written, ${BLOCK.added} of them new tokens); then the token list rows' first queries on it (sort orders, filter indexes) and a first search (name index); the longest stall is the longest the event loop was held by any of them (the most of the ${BUILDS}): what a request arriving then waited\n`,
);
printTable(versions);
