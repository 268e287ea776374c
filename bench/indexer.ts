/**
 * `npm run bench:indexer`: generates at least 200,000 events on the dev chain (the simulator's
 * event mode, which counts Swap, Transfer, Mint and Burn logs; a share of the launches on Uniswap
 * V3, --v3-share, so both sides index V2 and V3 events), indexes them from block 0 into
 * PostgreSQL with the worker in a child process, and prints the rates (chain events, the logs the
 * indexer reads, the API event rows it writes), blocks/s and the worker's peak RSS. Then the
 * Ponder peer (bench/peers/ponder, installed apart by `npm run bench:peers:install`; skipped with
 * a note when it is not) indexes the same history into a database of its own, and its rows are
 * compared with ours. Then, live, it mines blocks with a swap each and measures for each side the
 * time from a block being mined to its event rows being queryable, p50 and p95: both poll the
 * node every 250 ms, and ours also subscribes to its new heads (Ponder 1.0 has no subscription). Options: --events N, --days D (of history), --live-blocks N, --v3-share S, --json (one JSON object on the last line).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { encodeFunctionData } from "viem";
import { connect, type Sql } from "@/db/client";
import { loadArtifacts } from "@/devchain/compile";
import { deploy } from "@/devchain/deploy";
import { historyAt } from "@/devchain/history-clock";
import { devchainWsUrl, startDevChain } from "@/devchain/node";
import { runSimulation } from "@/devchain/simulator/runner";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { createTestDatabase as createDatabase } from "@/tests/setup/database";
import { Rpc } from "@/worker/indexer/rpc";
import { devchainProfile } from "@/worker/profiles/devchain";
import { spawnWorker, stopWorker } from "@/worker/test/child";
import { createTestDatabase } from "@/worker/test/db";
import {
  compareEventRows,
  newestPonderEventId,
  PONDER_PEER_INSTALL,
  PONDER_SCHEMA,
  type PonderPeer,
  ponderPeerInstalled,
  startPonderPeer,
} from "./lib/ponder-peer";
import { printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "200000" },
    "live-blocks": { type: "string", default: "120" },
    days: { type: "string", default: "3" },
    // Its own V3 share, whatever the simulator's default, so both sides always index V3 launches too.
    "v3-share": { type: "string", default: "0.4" },
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

/**
 * The newest event id the API can serve. GET /v1/events lists `events` newest first, so this is
 * what its first item would carry; swap it for an HTTP call to measure through the API itself.
 */
async function newestServedEventId(sql: Sql): Promise<number> {
  const [row] = await sql<{ id: string | null }[]>`select max(id)::text as id from events`;
  return Number(row.id ?? 0);
}

/** Peak resident set size of a process, in MB (Linux). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmHWM:\s+(\d+) kB/)![1]) / 1024;
}

/**
 * CPU seconds (user and system) a process has used so far, from /proc/<pid>/stat (clock ticks of
 * 1/100 s): what a backfill costs the worker, which a loaded machine stretches far less than its wall time.
 */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

type Side = { seconds: number; events: number; latencies: number[] };

/** The Ponder peer's side, from its start to its backfill's end; null (with the command to install it) when it is not installed. */
async function ponderBackfill(rpcUrl: string, profile: ReturnType<typeof devchainProfile>, head: number) {
  if (!ponderPeerInstalled()) {
    say(`Ponder peer not installed: run \`${PONDER_PEER_INSTALL}\` to compare with it. Measuring our side only.`);
    return null;
  }
  say("Ponder peer backfill...");
  const db = await createDatabase("ponder_bench");
  const sql = connect(db.url, { max: 2 });
  let peer: PonderPeer | null = null;
  try {
    peer = await startPonderPeer({ databaseUrl: db.url, rpcUrl, profile, pollMs: POLL_MS });
    await peer.serving;
    const started = performance.now();
    await peer.ready;
    const seconds = (performance.now() - started) / 1000;
    const [{ events }] = await sql<
      { events: number }[]
    >`select count(*)::int as events from ${sql(PONDER_SCHEMA)}.events`;
    // Ready means indexed to the finalized block; the blocks above it come in realtime.
    while ((await peer.indexedBlock()) < head) await sleep(50);
    return { db, sql, peer, side: { seconds, events, latencies: [] } as Side };
  } catch (err) {
    await peer?.stop();
    await sql.end();
    await db.drop();
    throw err;
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-indexer-"));
  const { genesisTimestamp, startTimestamp } = historyAt();
  const chain = await startDevChain({ dataDir, genesisTimestamp });
  const db = await createTestDatabase("idx_bench");
  const sql = connect(db.url, { max: 2 });
  let ponder: Awaited<ReturnType<typeof ponderBackfill>> = null;
  try {
    const deployment = await deploy(chain.rpcUrl, { dataDir });
    say(`simulating ${args.events} events...`);
    let last = 0;
    const simulated = await runSimulation({
      rpcUrl: chain.rpcUrl,
      deployment,
      seed: 1,
      events: Number(args.events),
      days: Number(args.days),
      v3Share: Number(args["v3-share"]),
      startTimestamp,
      onProgress: (p) => {
        if (Date.now() - last < 5_000) return;
        last = Date.now();
        say(`simulation: block ${p.blocksDone}/${p.blocksTotal}, ${p.events} events`);
      },
    });
    // The launchpads' tokens only, as the Ponder peer indexes them, so both index the same rows.
    const profile = { ...devchainProfile(deployment), poolTokens: false };
    const rpc = new Rpc({ url: chain.rpcUrl });
    let time = Number((await rpc.getBlocks([await rpc.blockNumber()], false))[0]!.timestamp);
    // The simulator mines empty stretches in bulk, and Hardhat gives such blocks no parent hash;
    // Ponder's realtime sync, which starts below the head, reads that as a reorg past finality.
    // Blocks mined one by one on top give both sides a linked chain above their finality depth.
    for (let i = 0; i < SETTLE_BLOCKS; i++) {
      time += 2;
      await rpc.call("evm_mine", [time]);
    }

    say("backfill...");
    const worker = spawnWorker(db.url, chain.rpcUrl, profile, {
      // Ours also hears the node announce new heads (eth_subscribe); Ponder 1.0 polls only.
      RPC_WS_URL: devchainWsUrl(chain.rpcUrl),
      POLL_INTERVAL_MS: String(POLL_MS),
      FULL_REFRESH_MS: "30000",
    });
    await worker.active;
    const started = performance.now();
    const cpuBefore = cpuSeconds(worker.proc.pid!);
    await worker.caughtUp;
    const seconds = (performance.now() - started) / 1000;
    const workerCpuSeconds = cpuSeconds(worker.proc.pid!) - cpuBefore;
    // Logs the indexer read and decoded: token and LP transfers, Syncs, and Swap/Mint/Burn.
    const [counts] = await sql<{ events: number; logs: number; blocks: number; v3_events: number }[]>`
      select (select count(*)::int from events) as events,
             (select count(*)::int from token_transfers) + (select count(*)::int from pool_reserves)
               + (select count(*)::int from events where type <> 'transfer') as logs,
             (select indexed_block::int from sync_state) as blocks,
             (select count(*)::int from events e join pools p on p.address = e.pool_address where p.protocol = 'uniswap-v3') as v3_events`;
    const ours: Side = { seconds, events: counts.events, latencies: [] };

    ponder = await ponderBackfill(chain.rpcUrl, profile, counts.blocks);
    const rows = ponder ? await compareEventRows(sql, ponder.sql, counts.blocks) : null;
    if (rows)
      say(
        `event rows up to block ${counts.blocks}: ours ${rows.ours}, Ponder's ${rows.ponder}, ${rows.differing} differing`,
      );

    say(`live: ${args["live-blocks"]} blocks, one swap each...`);
    const { UniswapV2Router02 } = await loadArtifacts();
    // The live swaps go through the V2 router: a launched token with a WETH pair.
    const [{ address: token }] = await sql<{ address: string }[]>`
      select t.address from tokens t join pools p on p.protocol = 'uniswap-v2' and ${deployment.weth.toLowerCase()} in (p.token0, p.token1) and t.address in (p.token0, p.token1)
      order by t.created_block limit 1`;
    const sides = [
      { name: "our worker", side: ours, newest: () => newestServedEventId(sql) },
      ...(ponder
        ? [{ name: "the Ponder peer", side: ponder.side, newest: () => newestPonderEventId(ponder!.sql) }]
        : []),
    ];
    for (let i = 0; i < Number(args["live-blocks"]); i++) {
      const data = encodeFunctionData({
        abi: UniswapV2Router02.abi,
        functionName: "swapExactETHForTokens",
        args: [0n, [deployment.weth, token], deployment.deployer, 2n ** 40n],
      });
      await rpc.call("eth_sendTransaction", [
        {
          from: deployment.deployer,
          to: deployment.uniswapV2.router,
          data,
          value: "0x2386f26fc10000",
          gas: "0x2dc6c0",
          gasPrice: "0x0",
        },
      ]);
      time += 2;
      await rpc.call("evm_mine", [time]);
      const mined = performance.now();
      const block = await rpc.blockNumber();
      const waiting = new Set(sides);
      while (waiting.size > 0) {
        for (const s of waiting) {
          if ((await s.newest()) < block * EVENT_ID_BLOCK_FACTOR) continue;
          s.side.latencies.push(performance.now() - mined);
          waiting.delete(s);
        }
        if (ponder && ponder.peer.proc.exitCode !== null) throw new Error("the Ponder peer exited");
        for (const s of waiting) {
          if (performance.now() - mined > LIVE_TIMEOUT_MS)
            throw new Error(`${s.name} did not serve block ${block} within ${LIVE_TIMEOUT_MS / 1000} s`);
        }
        await sleep(5);
      }
      await sleep(200 + Math.random() * 400);
    }
    const rssMb = peakRssMb(worker.proc.pid!);
    const ponderRssMb = ponder ? peakRssMb(ponder.peer.proc.pid!) : null;
    await stopWorker(worker);

    const p50 = (s: Side) => Math.round(percentile(s.latencies, 50));
    const p95 = (s: Side) => Math.round(percentile(s.latencies, 95));
    const perSecond = (s: Side) => Math.round(s.events / s.seconds);
    const result = {
      chain_events: simulated.groundTruth.stats.events,
      chain_events_per_second: Math.round(simulated.groundTruth.stats.events / seconds),
      logs: counts.logs,
      logs_per_second: Math.round(counts.logs / seconds),
      events: counts.events,
      v3_pool_events: counts.v3_events,
      blocks: counts.blocks,
      backfill_seconds: Number(seconds.toFixed(2)),
      backfill_worker_cpu_seconds: Number(workerCpuSeconds.toFixed(2)),
      events_per_second: perSecond(ours),
      blocks_per_second: Math.round(counts.blocks / seconds),
      peak_rss_mb: Math.round(rssMb),
      live_blocks: ours.latencies.length,
      freshness_p50_ms: p50(ours),
      freshness_p95_ms: p95(ours),
      poll_ms: POLL_MS,
      new_heads_subscription: true,
      ponder: ponder
        ? {
            events: ponder.side.events,
            backfill_seconds: Number(ponder.side.seconds.toFixed(2)),
            events_per_second: perSecond(ponder.side),
            peak_rss_mb: Math.round(ponderRssMb!),
            freshness_p50_ms: p50(ponder.side),
            freshness_p95_ms: p95(ponder.side),
            rows_compared: rows!,
            backfill_speedup: Number((perSecond(ours) / perSecond(ponder.side)).toFixed(2)),
            freshness_p95_ratio: Number((p95(ours) / p95(ponder.side)).toFixed(2)),
          }
        : null,
    };
    const peer = result.ponder;
    const row = (
      metric: string,
      value: number | "",
      ponderValue: number | null,
      ratio: number | null,
      target: string,
    ) => ({
      metric,
      ours: value,
      ponder: ponderValue ?? "",
      "ours/ponder": ratio ?? "",
      target,
    });
    printTable([
      row("chain events (simulator: Swap/Transfer/Mint/Burn logs)", result.chain_events, null, null, ">= 200000"),
      row("logs indexed (token/LP Transfer, Sync, Swap, Mint, Burn)", result.logs, null, null, ""),
      row(
        "API event rows (swaps, liquidity, transfers)",
        result.events,
        peer?.rows_compared.ponder ?? null,
        null,
        "same rows",
      ),
      row("  of which swaps and liquidity changes on V3 pools", result.v3_pool_events, null, null, "> 0"),
      row("event rows differing from ours", "", peer?.rows_compared.differing ?? null, null, "0"),
      row("blocks indexed", result.blocks, null, null, ""),
      row("backfill chain events/s", result.chain_events_per_second, null, null, ">= 5000"),
      row("backfill logs/s", result.logs_per_second, null, null, ""),
      row(
        "backfill API events/s",
        result.events_per_second,
        peer?.events_per_second ?? null,
        peer?.backfill_speedup ?? null,
        "ratio >= 5",
      ),
      row("backfill blocks/s", result.blocks_per_second, null, null, ""),
      row("backfill: the worker's CPU seconds (user + system)", result.backfill_worker_cpu_seconds, null, null, ""),
      row("peak RSS (MB)", result.peak_rss_mb, peer?.peak_rss_mb ?? null, null, "ours <= 1024"),
      row(
        `freshness p50 (ms; ${POLL_MS} ms poll, ours + newHeads)`,
        result.freshness_p50_ms,
        peer?.freshness_p50_ms ?? null,
        null,
        "",
      ),
      row(
        `freshness p95 (ms; ${POLL_MS} ms poll, ours + newHeads)`,
        result.freshness_p95_ms,
        peer?.freshness_p95_ms ?? null,
        peer?.freshness_p95_ratio ?? null,
        "<= 1000, ratio <= 1",
      ),
    ]);
    if (args.json) console.log(JSON.stringify(result));
  } finally {
    await ponder?.peer.stop();
    await ponder?.sql.end();
    await ponder?.db.drop();
    await sql.end();
    await chain.stop();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
