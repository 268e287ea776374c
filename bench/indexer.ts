/**
 * `npm run bench:indexer`: generates at least 200,000 events on the dev chain (the simulator's
 * event mode, which counts Swap, Transfer, Mint and Burn logs; a share of the launches on Uniswap
 * V3, --v3-share, so both sides index V2 and V3 events), indexes them from block 0 into
 * PostgreSQL with the worker in a child process, and prints the rates (chain events, the logs the
 * indexer reads, the API event rows it writes), blocks/s and the worker's peak RSS. Then, with our
 * worker stopped, the Ponder peer (bench/peers/ponder, installed apart by `npm run
 * bench:peers:install`; skipped with a note when it is not) indexes the same history into a
 * database of its own, and its rows are compared with ours. Both backfills run --runs times on the
 * same history (fresh databases each time), and the table gives the median and each run with the
 * machine's load average. Then, live, with both running, it mines blocks with a swap each and
 * measures for each side the time from a block being mined to its event rows being queryable, p50
 * and p95: both hear the node's new heads by eth_subscribe (with --poll, both only poll it every
 * 250 ms). Last, the same number of events spread over --tokens launched tokens (the shape of a
 * real chain: many tokens, few events each; 0 skips it) is indexed by our worker, and its rates
 * are printed beside the first shape's. --profile adds where the time of its backfill and of the
 * first shape's last run goes (statements sampled from pg_stat_activity, the worker's JavaScript
 * from a V8 CPU profile). Options: --events N,
 * --days D (of history), --tokens N, --runs N, --live-blocks N, --v3-share S, --poll, --profile,
 * --json (one JSON object on the last line).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { encodeFunctionData } from "viem";
import { connect, type Sql } from "@/db/client";
import { loadArtifacts } from "@/devchain/compile";
import { type Deployment, deploy } from "@/devchain/deploy";
import { historyAt } from "@/devchain/history-clock";
import { type DevChain, devchainWsUrl, startDevChain } from "@/devchain/node";
import { runSimulation } from "@/devchain/simulator/runner";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { createTestDatabase as createDatabase } from "@/tests/setup/database";
import { Rpc } from "@/worker/indexer/rpc";
import type { ChainProfile } from "@/worker/profiles";
import { devchainProfile } from "@/worker/profiles/devchain";
import { spawnWorker, stopWorker, type WorkerChild } from "@/worker/test/child";
import { createTestDatabase, type TestDatabase } from "@/worker/test/db";
import { WORKER_APPLICATION } from "@/worker/worker";
import { CPU_PROFILE_PRELOAD, cpuSelfTime } from "./lib/cpu-profile";
import { type DbProfile, sampleDbActivity } from "./lib/db-sampler";
import {
  compareEventRows,
  newestPonderEventId,
  PONDER_PEER_INSTALL,
  PONDER_SCHEMA,
  type PonderPeer,
  ponderPeerInstalled,
  ponderPeerVersion,
  startPonderPeer,
} from "./lib/ponder-peer";
import { BENCH_APPLICATION, trackSideCpu } from "./lib/side-cpu";
import { printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "200000" },
    "live-blocks": { type: "string", default: "120" },
    days: { type: "string", default: "3" },
    // Each launch brings its planted trading, and the dev chain's node holds every block in memory (about
    // 25 KB an event): 2,000 launches made 620,000 chain events and a 17 GB node; 5,000 outgrew 24 GB.
    tokens: { type: "string", default: "1000" },
    runs: { type: "string", default: "3" },
    // Its own V3 share, whatever the simulator's default, so both sides always index V3 launches too.
    "v3-share": { type: "string", default: "0.4" },
    poll: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const POLL_MS = 250;
/** A live block not served by then means a side stopped following the chain. */
const LIVE_TIMEOUT_MS = 60_000;
/** More than either side's finality depth (ours 32 on the dev chain, Ponder's 30 there). */
const SETTLE_BLOCKS = 40;
const say = (s: string) => console.error(`[bench:indexer] ${s}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => percentile(xs, 50);
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
/** The machine's 1-minute load average, beside each run's figures: other work shares these cores. */
const load = () => Number(os.loadavg()[0].toFixed(2));

/**
 * The newest event id the API can serve. GET /v1/events lists `events` newest first, so this is
 * what its first item would carry; swap it for an HTTP call to measure through the API itself.
 */
async function newestServedEventId(sql: Sql): Promise<number> {
  const [row] = await sql<{ id: string | null }[]>`select max(id)::text as id from events`;
  return Number(row.id ?? 0);
}

/** The newest block our worker has indexed. */
async function indexedBlock(sql: Sql): Promise<number> {
  const [row] = await sql<{ block: number }[]>`select indexed_block::int as block from sync_state`;
  return row?.block ?? 0;
}

/** Peak resident set size of a process, in MB (Linux). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmHWM:\s+(\d+) kB/)![1]) / 1024;
}

/** A simulated history on a dev chain of its own, its head settled above both sides' finality depth. */
type History = {
  chain: DevChain;
  dataDir: string;
  deployment: Deployment;
  /** The launchpads' tokens only, as the Ponder peer indexes them, so both index the same rows. */
  profile: ChainProfile;
  chainEvents: number;
  /** The simulated history's last block; the settle blocks above it are empty. */
  historyEnd: number;
  rpc: Rpc;
  /** The newest block's timestamp: live blocks are mined after it. */
  time: number;
  stop: () => Promise<void>;
};

async function simulateHistory(tokens: number | undefined): Promise<History> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-indexer-"));
  const { genesisTimestamp, startTimestamp } = historyAt();
  const chain = await startDevChain({ dataDir, genesisTimestamp });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await chain.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deployment = await deploy(chain.rpcUrl, { dataDir });
    say(`simulating ${args.events} events${tokens ? ` over ${tokens} tokens` : ""}...`);
    let last = 0;
    const simulated = await runSimulation({
      rpcUrl: chain.rpcUrl,
      deployment,
      seed: 1,
      events: Number(args.events),
      days: Number(args.days),
      tokens,
      v3Share: Number(args["v3-share"]),
      startTimestamp,
      onProgress: (p) => {
        if (Date.now() - last < 5_000) return;
        last = Date.now();
        say(`simulation: block ${p.blocksDone}/${p.blocksTotal}, ${p.events} events`);
      },
    });
    const rpc = new Rpc({ url: chain.rpcUrl });
    const historyEnd = await rpc.blockNumber();
    let time = Number((await rpc.getBlocks([historyEnd], false))[0]!.timestamp);
    // The simulator mines empty stretches in bulk, and Hardhat gives such blocks no parent hash;
    // Ponder's realtime sync, which starts below the head, reads that as a reorg past finality.
    // Blocks mined one by one on top give both sides a linked chain above their finality depth.
    for (let i = 0; i < SETTLE_BLOCKS; i++) {
      time += 2;
      await rpc.call("evm_mine", [time]);
    }
    const profile = { ...devchainProfile(deployment), poolTokens: false };
    const chainEvents = simulated.groundTruth.stats.events;
    return { chain, dataDir, deployment, profile, chainEvents, historyEnd, rpc, time, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

type Counts = { events: number; logs: number; blocks: number; v3_events: number; tokens: number };
/** A timed backfill: wall seconds, the load average at its end, CPU seconds of its process and database sessions. */
type Backfill = { seconds: number; load: number; cpu: { process: number; database: number } };

/** Starts our worker on the history's chain; both sides hear new heads the same way (--poll or subscribed). */
const startOurWorker = (db: TestDatabase, h: History, env: Record<string, string> = {}) =>
  spawnWorker(db.url, h.chain.rpcUrl, h.profile, {
    ...(args.poll ? {} : { RPC_WS_URL: devchainWsUrl(h.chain.rpcUrl) }),
    POLL_INTERVAL_MS: String(POLL_MS),
    FULL_REFRESH_MS: "30000",
    ...env,
  });

/**
 * Our worker's backfill into a fresh database, timed from its taking the lock to its first idle
 * cycle at the head. With `profile`, its database time is sampled by statement and its JavaScript
 * time by source file (a V8 CPU profile, written when it exits).
 */
async function ourBackfill(h: History, profile = false) {
  const db = await createTestDatabase("idx_bench");
  const sql = connect(db.url, { max: 2, connection: { application_name: BENCH_APPLICATION } });
  const profileDir = profile ? mkdtempSync(path.join(os.tmpdir(), "bench-indexer-prof-")) : null;
  let worker: WorkerChild | null = null;
  try {
    worker = startOurWorker(
      db,
      h,
      profileDir ? { NODE_OPTIONS: `--import ${CPU_PROFILE_PRELOAD}`, CPU_PROFILE_DIR: profileDir } : {},
    );
    await worker.active;
    const sampler = profile ? sampleDbActivity(sql, WORKER_APPLICATION) : null;
    const cpu = trackSideCpu(sql, worker.proc.pid!);
    const started = performance.now();
    await worker.caughtUp;
    const seconds = (performance.now() - started) / 1000;
    const backfill: Backfill = { seconds, load: load(), cpu: await cpu.stop() };
    const dbProfile = await sampler?.stop();
    const rssMb = peakRssMb(worker.proc.pid!);
    // Stopped, so the Ponder peer's backfill has the machine to itself.
    await stopWorker(worker);
    const jsProfile = profileDir ? cpuSelfTime(profileDir) : null;
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    // Logs the indexer read and decoded: token and LP transfers, Syncs, and Swap/Mint/Burn.
    const [counts] = await sql<Counts[]>`
      select (select count(*)::int from events) as events,
             (select count(*)::int from token_transfers) + (select count(*)::int from pool_reserves)
               + (select count(*)::int from events where type <> 'transfer') as logs,
             (select indexed_block::int from sync_state) as blocks,
             (select count(*)::int from events e join pools p on p.address = e.pool_address
               where p.protocol = 'uniswap-v3') as v3_events,
             (select count(*)::int from tokens) as tokens`;
    return {
      db,
      sql,
      backfill,
      counts,
      rssMb,
      profile: dbProfile && jsProfile ? { db: dbProfile, cpu: jsProfile } : null,
    };
  } catch (err) {
    if (worker) await stopWorker(worker);
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    await sql.end();
    await db.drop();
    throw err;
  }
}

/**
 * The Ponder peer's backfill, from its start to its historical sync's end (to the finalized block,
 * which is above the simulated history: the settle blocks are more than its finality depth); it
 * keeps running after, and its realtime sync takes the blocks above when a new head comes.
 */
async function ponderBackfill(h: History) {
  say(`Ponder ${ponderPeerVersion()} backfill...`);
  const db = await createDatabase("ponder_bench");
  const sql = connect(db.url, { max: 2, connection: { application_name: BENCH_APPLICATION } });
  let peer: PonderPeer | null = null;
  try {
    peer = await startPonderPeer({
      databaseUrl: db.url,
      rpcUrl: h.chain.rpcUrl,
      wsUrl: args.poll ? undefined : devchainWsUrl(h.chain.rpcUrl),
      profile: h.profile,
      pollMs: POLL_MS,
    });
    await peer.serving;
    const cpu = trackSideCpu(sql, peer.proc.pid!);
    const started = performance.now();
    await peer.ready;
    const seconds = (performance.now() - started) / 1000;
    const backfill: Backfill = { seconds, load: load(), cpu: await cpu.stop() };
    const [{ events }] = await sql<
      { events: number }[]
    >`select count(*)::int as events from ${sql(PONDER_SCHEMA)}.events where not leg`;
    return { db, sql, peer, backfill, events, indexedBlock: await peer.indexedBlock() };
  } catch (err) {
    await peer?.stop();
    await sql.end();
    await db.drop();
    throw err;
  }
}

type Live = {
  name: string;
  latencies: number[];
  /** The newest event id it serves. */
  newest: () => Promise<number>;
  /** The newest block it has indexed. */
  indexed: () => Promise<number>;
  exited: () => boolean;
};

/** Mines live blocks with a V2 swap each; for each side, the time from a block mined to its rows being queryable. */
async function measureFreshness(h: History, ourSql: Sql, sides: Live[]) {
  const { UniswapV2Router02 } = await loadArtifacts();
  // The live swaps go through the V2 router: a launched token with a WETH pair.
  const weth = h.deployment.weth.toLowerCase();
  const [{ address: token }] = await ourSql<{ address: string }[]>`
    select t.address from tokens t
    join pools p on p.protocol = 'uniswap-v2' and ${weth} in (p.token0, p.token1) and t.address in (p.token0, p.token1)
    order by t.created_block limit 1`;
  let time = h.time;
  // A first, empty block: each side follows the head from it on (Ponder's realtime sync, started
  // at its finalized block, takes the blocks above when it hears of a new one).
  time += 2;
  await h.rpc.call("evm_mine", [time]);
  const first = await h.rpc.blockNumber();
  for (const s of sides) {
    const since = performance.now();
    while ((await s.indexed()) < first) {
      if (s.exited() || performance.now() - since > LIVE_TIMEOUT_MS)
        throw new Error(`${s.name} did not reach the head`);
      await sleep(20);
    }
  }
  for (let i = 0; i < Number(args["live-blocks"]); i++) {
    const data = encodeFunctionData({
      abi: UniswapV2Router02.abi,
      functionName: "swapExactETHForTokens",
      args: [0n, [h.deployment.weth, token], h.deployment.deployer, 2n ** 40n],
    });
    await h.rpc.call("eth_sendTransaction", [
      {
        from: h.deployment.deployer,
        to: h.deployment.uniswapV2.router,
        data,
        value: "0x2386f26fc10000",
        gas: "0x2dc6c0",
        gasPrice: "0x0",
      },
    ]);
    time += 2;
    await h.rpc.call("evm_mine", [time]);
    const mined = performance.now();
    const block = await h.rpc.blockNumber();
    const waiting = new Set(sides);
    while (waiting.size > 0) {
      for (const s of waiting) {
        if (s.exited()) throw new Error(`${s.name} exited`);
        if ((await s.newest()) < block * EVENT_ID_BLOCK_FACTOR) continue;
        s.latencies.push(performance.now() - mined);
        waiting.delete(s);
      }
      for (const s of waiting) {
        if (performance.now() - mined > LIVE_TIMEOUT_MS)
          throw new Error(`${s.name} did not serve block ${block} within ${LIVE_TIMEOUT_MS / 1000} s`);
      }
      await sleep(5);
    }
    await sleep(200 + Math.random() * 400);
  }
}

type Profile = { db: DbProfile; cpu: ReturnType<typeof cpuSelfTime> };
type ManyTokens = Backfill & { counts: Counts; chainEvents: number; profile: Profile | null };

type Run = {
  run: number;
  ours: Backfill;
  ponder: (Backfill & { events: number; differing: number }) | null;
};

async function main() {
  const peerInstalled = ponderPeerInstalled();
  if (!peerInstalled)
    say(`Ponder peer not installed: run \`${PONDER_PEER_INSTALL}\` to compare with it. Measuring our side only.`);
  const version = peerInstalled ? ponderPeerVersion() : null;
  const few = await simulateHistory(undefined);
  const runs: Run[] = [];
  let ours: Awaited<ReturnType<typeof ourBackfill>> | null = null;
  let ponder: Awaited<ReturnType<typeof ponderBackfill>> | null = null;
  let liveWorker: WorkerChild | null = null;
  const dropSides = async () => {
    if (liveWorker) await stopWorker(liveWorker);
    await ponder?.peer.stop();
    for (const side of [ponder, ours]) {
      await side?.sql.end();
      await side?.db.drop();
    }
    [ours, ponder, liveWorker] = [null, null, null];
  };
  let rssMb = 0;
  let many: ManyTokens | null = null;
  let fewProfile: Profile | null = null;
  const live: Record<"ours" | "ponder", number[]> = { ours: [], ponder: [] };
  try {
    for (let run = 1; run <= Number(args.runs); run++) {
      await dropSides();
      say(`run ${run}: our backfill...`);
      // With --profile, the last run is the profiled one.
      ours = await ourBackfill(few, args.profile && run === Number(args.runs));
      fewProfile = ours.profile;
      rssMb = Math.max(rssMb, ours.rssMb);
      const o = ours;
      say(`run ${run}: ours ${o.backfill.seconds.toFixed(1)} s (load ${o.backfill.load})`);
      ponder = peerInstalled ? await ponderBackfill(few) : null;
      const upTo = Math.min(o.counts.blocks, ponder?.indexedBlock ?? 0);
      if (ponder && upTo < few.historyEnd) throw new Error(`the Ponder peer's backfill ended at block ${upTo}`);
      const rows = ponder ? await compareEventRows(o.sql, ponder.sql, upTo) : null;
      if (ponder && rows)
        say(
          `run ${run}: Ponder ${ponder.backfill.seconds.toFixed(1)} s (load ${ponder.backfill.load}); ` +
            `event rows to block ${upTo}: ours ${rows.ours}, Ponder's ${rows.ponder}, ${rows.differing} differing`,
        );
      runs.push({
        run,
        ours: o.backfill,
        ponder: ponder && rows ? { ...ponder.backfill, events: ponder.events, differing: rows.differing } : null,
      });
    }
    const o = ours!;
    say(`live: ${args["live-blocks"]} blocks, one swap each...`);
    // Our worker again, from where its backfill stopped, beside the running peer.
    liveWorker = startOurWorker(o.db, few);
    await liveWorker.caughtUp;
    const w = liveWorker;
    const p = ponder;
    await measureFreshness(few, o.sql, [
      {
        name: "our worker",
        latencies: live.ours,
        newest: () => newestServedEventId(o.sql),
        indexed: () => indexedBlock(o.sql),
        exited: () => w.proc.exitCode !== null,
      },
      ...(p
        ? [
            {
              name: "the Ponder peer",
              latencies: live.ponder,
              newest: () => newestPonderEventId(p.sql),
              indexed: () => p.peer.indexedBlock(),
              exited: () => p.peer.proc.exitCode !== null,
            },
          ]
        : []),
    ]);
    rssMb = Math.max(rssMb, peakRssMb(w.proc.pid!));
    const ponderRssMb = p ? peakRssMb(p.peer.proc.pid!) : null;
    await dropSides();
    await few.stop();

    if (Number(args.tokens) > 0) {
      const h = await simulateHistory(Number(args.tokens));
      try {
        say(`our backfill at ${args.tokens} tokens...`);
        const m = await ourBackfill(h, args.profile);
        rssMb = Math.max(rssMb, m.rssMb);
        many = { ...m.backfill, counts: m.counts, chainEvents: h.chainEvents, profile: m.profile };
        await m.sql.end();
        await m.db.drop();
      } finally {
        await h.stop();
      }
    }
    report({
      counts: o.counts,
      chainEvents: few.chainEvents,
      runs,
      live,
      rssMb,
      ponderRssMb,
      version,
      many,
      fewProfile,
    });
  } finally {
    await dropSides();
    await few.stop();
  }
}

function report(r: {
  counts: Counts;
  chainEvents: number;
  runs: Run[];
  live: Record<"ours" | "ponder", number[]>;
  rssMb: number;
  ponderRssMb: number | null;
  version: string | null;
  many: ManyTokens | null;
  fewProfile: Profile | null;
}) {
  const { counts, runs } = r;
  const seconds = median(runs.map((x) => x.ours.seconds));
  const peerRuns = runs.flatMap((x) => (x.ponder ? [x.ponder] : []));
  const ponderSeconds = peerRuns.length ? median(peerRuns.map((x) => x.seconds)) : null;
  const differing = peerRuns.length ? Math.max(...peerRuns.map((x) => x.differing)) : null;
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  const p50 = (xs: number[]) => (xs.length ? Math.round(percentile(xs, 50)) : null);
  const p95 = (xs: number[]) => (xs.length ? Math.round(percentile(xs, 95)) : null);
  const heads = args.poll ? `both poll every ${POLL_MS} ms` : `both subscribed to new heads, poll ${POLL_MS} ms`;
  const peer = `Ponder ${r.version ?? "(not installed)"}`;
  const result = {
    chain_events: r.chainEvents,
    chain_events_per_second: Math.round(r.chainEvents / seconds),
    logs: counts.logs,
    logs_per_second: Math.round(counts.logs / seconds),
    events: counts.events,
    v3_pool_events: counts.v3_events,
    tokens: counts.tokens,
    blocks: counts.blocks,
    backfill_seconds: Number(seconds.toFixed(2)),
    events_per_second: Math.round(counts.events / seconds),
    blocks_per_second: Math.round(counts.blocks / seconds),
    peak_rss_mb: Math.round(r.rssMb),
    live_blocks: r.live.ours.length,
    freshness_p50_ms: p50(r.live.ours),
    freshness_p95_ms: p95(r.live.ours),
    poll_ms: POLL_MS,
    new_heads_subscription: !args.poll,
    runs: runs.map((x) => ({
      run: x.run,
      backfill_seconds: Number(x.ours.seconds.toFixed(2)),
      load: x.ours.load,
      ponder_backfill_seconds: x.ponder ? Number(x.ponder.seconds.toFixed(2)) : null,
      ponder_load: x.ponder?.load ?? null,
      ponder_differing: x.ponder?.differing ?? null,
      backfill_speedup: x.ponder ? ratio(x.ponder.seconds, x.ours.seconds) : null,
      cpu_seconds: Number(cpuSeconds(x.ours).toFixed(1)),
      ponder_cpu_seconds: x.ponder ? Number(cpuSeconds(x.ponder).toFixed(1)) : null,
      cpu_ratio: x.ponder ? ratio(cpuSeconds(x.ponder), cpuSeconds(x.ours)) : null,
    })),
    ponder:
      ponderSeconds !== null
        ? {
            version: r.version,
            events: peerRuns[0].events,
            backfill_seconds: Number(ponderSeconds.toFixed(2)),
            events_per_second: Math.round(peerRuns[0].events / ponderSeconds),
            peak_rss_mb: Math.round(r.ponderRssMb!),
            freshness_p50_ms: p50(r.live.ponder),
            freshness_p95_ms: p95(r.live.ponder),
            differing_rows: differing,
            // Judged only when the rows agree: the same work done.
            backfill_speedup: differing === 0 ? ratio(ponderSeconds, seconds) : null,
            freshness_p95_ratio: ratio(p95(r.live.ours)!, p95(r.live.ponder)!),
          }
        : null,
    many_tokens: r.many
      ? {
          tokens: r.many.counts.tokens,
          chain_events: r.many.chainEvents,
          events: r.many.counts.events,
          backfill_seconds: Number(r.many.seconds.toFixed(2)),
          load: r.many.load,
          chain_events_per_second: Math.round(r.many.chainEvents / r.many.seconds),
          events_per_second: Math.round(r.many.counts.events / r.many.seconds),
        }
      : null,
  };
  const q = result.ponder;
  const row = (
    metric: string,
    value: number | string | null,
    peerValue: number | null,
    rat: number | null,
    target = "",
  ) => ({
    metric,
    ours: value ?? "",
    [peer]: peerValue ?? "",
    ratio: rat ?? "",
    target,
  });
  console.log(`Backfill: median of ${runs.length} run(s) on the same history; live: ${heads}.`);
  printTable([
    row("chain events (simulator: Swap/Transfer/Mint/Burn logs)", result.chain_events, null, null, ">= 200000"),
    row("launched tokens", result.tokens, null, null),
    row("logs indexed (token/LP Transfer, Sync, Swap, Mint, Burn)", result.logs, null, null),
    row("API event rows (swaps, liquidity, transfers)", result.events, q?.events ?? null, null, "same rows"),
    row("  of which swaps and liquidity changes on V3 pools", result.v3_pool_events, null, null, "> 0"),
    row("event rows differing from ours (worst run)", "", q?.differing_rows ?? null, null, "0"),
    row("blocks indexed", result.blocks, null, null),
    row("backfill seconds (median)", result.backfill_seconds, q?.backfill_seconds ?? null, null),
    row(
      "backfill CPU s, process + its PostgreSQL sessions (median)",
      median(result.runs.map((x) => x.cpu_seconds)),
      q ? median(result.runs.map((x) => x.ponder_cpu_seconds!)) : null,
      q ? median(result.runs.map((x) => x.cpu_ratio!)) : null,
      "ratio peer/ours",
    ),
    row("backfill chain events/s", result.chain_events_per_second, null, null, ">= 5000"),
    row("backfill logs/s", result.logs_per_second, null, null),
    row(
      "backfill API events/s",
      result.events_per_second,
      q?.events_per_second ?? null,
      q?.backfill_speedup ?? null,
      "ratio ours/peer >= 5",
    ),
    row("backfill blocks/s", result.blocks_per_second, null, null),
    row("peak RSS (MB)", result.peak_rss_mb, q?.peak_rss_mb ?? null, null, "ours <= 1024"),
    row("freshness p50 (ms)", result.freshness_p50_ms, q?.freshness_p50_ms ?? null, null),
    row(
      "freshness p95 (ms)",
      result.freshness_p95_ms,
      q?.freshness_p95_ms ?? null,
      q?.freshness_p95_ratio ?? null,
      "<= 1000; ratio ours/peer <= 1",
    ),
  ]);
  console.log("\nBackfill runs (load: 1-minute load average at each backfill's end, 2 cores):");
  printTable(
    result.runs.map((x) => ({
      run: x.run,
      "ours s": x.backfill_seconds,
      "ours load": x.load,
      [`${peer} s`]: x.ponder_backfill_seconds ?? "",
      "peer load": x.ponder_load ?? "",
      "rows differing": x.ponder_differing ?? "",
      "peer s / ours s": x.backfill_speedup ?? "",
      "ours CPU s": x.cpu_seconds,
      "peer CPU s": x.ponder_cpu_seconds ?? "",
      "peer CPU / ours": x.cpu_ratio ?? "",
    })),
  );
  const m = result.many_tokens;
  if (m) {
    console.log(
      `\nBackfill rate by shape (our worker; --events ${args.events} asked of the simulator, whose launches add more):`,
    );
    printTable(
      [
        {
          shape: "few tokens",
          tokens: result.tokens,
          events: result.events,
          seconds: result.backfill_seconds,
          ...rates(result),
        },
        { shape: "many tokens", tokens: m.tokens, events: m.events, seconds: m.backfill_seconds, ...rates(m) },
      ].map((x) => ({ ...x, "events/s vs few tokens": ratio(x["API events/s"], result.events_per_second) })),
    );
  }
  if (r.fewProfile) printProfile("few-token", r.fewProfile, r.runs.at(-1)!.ours.seconds, counts.tokens);
  if (r.many?.profile) printProfile("many-token", r.many.profile, r.many.seconds, r.many.counts.tokens);
  const profiles = { few_tokens_profile: r.fewProfile, many_tokens_profile: r.many?.profile ?? null };
  if (args.json) console.log(JSON.stringify({ ...result, ...profiles }));
}

/** Where a profiled backfill's time went: statements by table (with ms per token), then JavaScript by source. */
function printProfile(shape: string, prof: Profile, seconds: number, tokens: number) {
  const perToken = (share: number) => Number(((share * prof.db.busy * seconds * 1000) / tokens).toFixed(3));
  console.log(
    `\nWhere the ${shape} backfill's time goes: its database sessions ran a statement ` +
      `${Math.round(prof.db.busy * 100)}% of the time (sampled every 10 ms), by statement:`,
  );
  printTable(
    prof.db.labels.slice(0, 20).map((l) => ({
      statement: l.label,
      "share of statement time": `${(l.share * 100).toFixed(1)}%`,
      "ms per token": perToken(l.share),
    })),
  );
  console.log("\nIts JavaScript (V8 CPU profile, self time by source, whole process life):");
  printTable(
    prof.cpu.slice(0, 20).map((c) => ({ source: c.place, "self ms": c.ms, share: `${(c.share * 100).toFixed(1)}%` })),
  );
}

/** A backfill's CPU seconds: its process's and its database sessions'. */
const cpuSeconds = (b: Backfill) => b.cpu.process + b.cpu.database;

const rates = (x: { chain_events_per_second: number; events_per_second: number }) => ({
  "chain events/s": x.chain_events_per_second,
  "API events/s": x.events_per_second,
});

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
