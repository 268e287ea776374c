/**
 * `npm run bench:backfill`: loads a fixture chain (scripts/fixtures) into a fresh database through the
 * worker's indexer, as bench:api's large load does, and prints what it cost per 1,000 token actions:
 * wall seconds, and the CPU seconds of this process (the indexer and the fixture's node) and of its
 * PostgreSQL sessions, which the machine's load moves far less than the wall clock; and the
 * collector's pauses on the process's main thread, and its peak memory.
 *
 *   npm run bench:backfill -- [--tokens N --wallets N --events N --days N --seed N --now ISO] [--no-bulk]
 *     [--database NAME] [--keep] [--profile] [--embedded]
 *
 * (The script starts node with the indexer's flags, worker/node-flags.ts, as the worker runs.)
 *
 * Defaults: 2,000 tokens, 4,000 wallets, 100,000 actions over 7 days, bulk (bulk.ts). The database
 * (default `bench_backfill`) is created anew and dropped after unless --keep. With CHAIN_DUMP_DIR set,
 * the chain-derived tables are dumped to `$CHAIN_DUMP_DIR/<database>.jsonl` for scripts/compare-dumps.ts.
 * --profile samples the load's statements (db-sampler.ts) phase by phase and prints their shares and
 * what they waited for. --embedded loads into the product's own server as `npm start` runs it
 * (durable, sized by scripts/embedded/server-settings.ts) instead of DATABASE_URL's, in a data
 * directory removed after (kept, and named, with --keep).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { PerformanceObserver, constants as perf } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { connect } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { startEmbeddedDatabase } from "@/scripts/embedded/database";
import { FIXTURE_APPLICATION, loadFixture } from "@/scripts/fixtures";
import { databaseUrl, serverUrl } from "@/tests/setup/database";
import { freePort } from "@/tests/setup/server";
import { saveDumpIfAsked } from "@/worker/test/dump";
import { type DbProfile, sampleDbActivity } from "./lib/db-sampler";
import { BENCH_APPLICATION, trackSideCpu } from "./lib/side-cpu";
import { printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    tokens: { type: "string", default: "2000" },
    wallets: { type: "string", default: "4000" },
    events: { type: "string", default: "100000" },
    days: { type: "string", default: "7" },
    seed: { type: "string", default: "42" },
    // A fixed head time: the same chain's rows, timestamps included, at every run (dumps compare).
    now: { type: "string", default: "2026-11-01T00:00:00Z" },
    "no-bulk": { type: "boolean", default: false },
    database: { type: "string", default: "bench_backfill" },
    keep: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    embedded: { type: "boolean", default: false },
  },
});
const embeddedDir = args.embedded ? mkdtempSync(path.join(tmpdir(), "bench-backfill-")) : null;
const embedded = embeddedDir ? await startEmbeddedDatabase({ dataDir: embeddedDir, port: await freePort() }) : null;
if (embedded) process.env.DATABASE_URL = embedded.url;
const shape = { tokens: Number(args.tokens), wallets: Number(args.wallets), events: Number(args.events) };
const name = args.database!;
const url = databaseUrl(name);

const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
await admin.unsafe(`drop database if exists ${name} with (force)`);
await admin.unsafe(`create database ${name}`);
await runMigrations(url);

const probe = connect(url, { max: 1, connection: { application_name: BENCH_APPLICATION } });
const cpu = trackSideCpu(probe, process.pid);
/** --profile: one sampler per phase of the load, each stopped as the next starts. */
const phases: { phase: string; profile: Promise<DbProfile> }[] = [];
let sampling: { phase: string; stop: () => Promise<DbProfile> } | null = null;
const samplePhase = (phase: string | null) => {
  if (sampling) phases.push({ phase: sampling.phase, profile: sampling.stop() });
  sampling = phase ? { phase, ...sampleDbActivity(probe, FIXTURE_APPLICATION) } : null;
};
const loadBefore = loadavg()[0];
// The collector's pauses on the main thread, the indexer's: what its ranges' garbage costs it.
// Of which full collections (their atomic pauses and incremental marking steps): what the heap's
// live objects cost, since each marks all of them.
let gcMs = 0;
let majorGcMs = 0;
const MAJOR = perf.NODE_PERFORMANCE_GC_MAJOR | perf.NODE_PERFORMANCE_GC_INCREMENTAL;
const addPauses = (entries: PerformanceEntry[]) => {
  for (const e of entries) {
    gcMs += e.duration;
    if ((e as PerformanceEntry & { detail: { kind: number } }).detail.kind & MAJOR) majorGcMs += e.duration;
  }
};
const gc = new PerformanceObserver((list) => addPauses(list.getEntries()));
gc.observe({ entryTypes: ["gc"] });
const loaded = await loadFixture(url, {
  size: "large",
  ...shape,
  spanDays: Number(args.days),
  seed: Number(args.seed),
  now: new Date(args.now!),
  bulk: !args["no-bulk"],
  onPhase: args.profile ? samplePhase : undefined,
});
samplePhase(null);
// Entries not yet handed to the callback count too.
addPauses(gc.takeRecords());
gc.disconnect();
const used = await cpu.stop();
const profiles = await Promise.all(phases.map(async (p) => ({ phase: p.phase, ...(await p.profile) })));
const [{ actions }] = await probe<{ actions: number }[]>`select count(*)::int as actions from events`;
await probe.end();
await saveDumpIfAsked(name, url);
if (!args.keep) await admin.unsafe(`drop database ${name} with (force)`);
await admin.end();
await embedded?.stop();
// As root the data lives where the OS user postgres reaches (postgres-reach.ts), not always in embeddedDir.
if (embedded && !args.keep)
  for (const dir of [embeddedDir!, embedded.dataDir]) rmSync(dir, { recursive: true, force: true });
else if (embedded) console.log(`kept the embedded server's data in ${embedded.dataDir}`);

const perK = (v: number) => (v * 1000) / shape.events;
printTable([
  {
    ...shape,
    "event rows": actions,
    seconds: loaded.seconds,
    "backfill s": loaded.phases.backfill,
    "indexes s": loaded.phases.indexes,
    "refresh s": loaded.phases.refresh,
    "actions/s": Math.round(shape.events / loaded.seconds),
    "process CPU s": used.process,
    "db CPU s": used.database,
    "process CPU s/1k": perK(used.process),
    "db CPU s/1k": perK(used.database),
    "GC s": gcMs / 1000,
    "major GC s": majorGcMs / 1000,
    "peak RSS MB": Math.round(process.resourceUsage().maxRSS / 1024),
    load: `${loadBefore.toFixed(1)}-${loadavg()[0].toFixed(1)}`,
  },
]);
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
for (const p of profiles) {
  console.log(`\n${p.phase}: sessions active ${percent(p.busy)} of the time; share of statement time:`);
  printTable(p.labels.slice(0, 15).map((l) => ({ statement: l.label, share: percent(l.share) })));
  printTable(p.waits.slice(0, 5).map((w) => ({ "the statements were": w.label, share: percent(w.share) })));
}
