/**
 * `npm run bench:indexer`: generates at least 200,000 events on the dev chain (the simulator's
 * event mode, which counts Swap, Transfer, Mint and Burn logs), indexes them from block 0 into
 * PostgreSQL with the worker in a child process, and prints the rates (chain events, the logs the
 * indexer reads, the API event rows it writes), blocks/s and the worker's peak RSS; then, live, mines blocks with a swap each
 * and measures the time from a block being mined to its events being served, p50 and p95, with
 * a 250 ms poll. Options: --events N, --live-blocks N, --json (one JSON object on the last line).
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
import { startDevChain } from "@/devchain/node";
import { runSimulation } from "@/devchain/simulator/runner";
import { Rpc } from "@/worker/indexer/rpc";
import { EVENT_ID_BLOCK_FACTOR } from "@/worker/indexer/transform";
import { devchainProfile } from "@/worker/profiles/devchain";
import { spawnWorker, stopWorker } from "@/worker/test/child";
import { createTestDatabase } from "@/worker/test/db";
import { printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "200000" },
    "live-blocks": { type: "string", default: "120" },
    json: { type: "boolean", default: false },
  },
});
const POLL_MS = 250;
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

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-indexer-"));
  const { genesisTimestamp, startTimestamp } = historyAt();
  const chain = await startDevChain({ dataDir, genesisTimestamp });
  const db = await createTestDatabase("idx_bench");
  const sql = connect(db.url, { max: 2 });
  try {
    const deployment = await deploy(chain.rpcUrl, { dataDir });
    say(`simulating ${args.events} events...`);
    let last = 0;
    const simulated = await runSimulation({
      rpcUrl: chain.rpcUrl,
      deployment,
      seed: 1,
      events: Number(args.events),
      startTimestamp,
      onProgress: (p) => {
        if (Date.now() - last < 5_000) return;
        last = Date.now();
        say(`simulation: block ${p.blocksDone}/${p.blocksTotal}, ${p.events} events`);
      },
    });
    const profile = devchainProfile(deployment);

    say("backfill...");
    const worker = spawnWorker(db.url, chain.rpcUrl, profile, { POLL_INTERVAL_MS: String(POLL_MS), FULL_REFRESH_MS: "30000" });
    await worker.active;
    const started = performance.now();
    await worker.caughtUp;
    const seconds = (performance.now() - started) / 1000;
    // Logs the indexer read and decoded: token and LP transfers, Syncs, and Swap/Mint/Burn.
    const [counts] = await sql<{ events: number; logs: number; blocks: number }[]>`
      select (select count(*)::int from events) as events,
             (select count(*)::int from token_transfers) + (select count(*)::int from pool_reserves)
               + (select count(*)::int from events where type <> 'transfer') as logs,
             (select indexed_block::int from sync_state) as blocks`;

    say(`live: ${args["live-blocks"]} blocks, one swap each...`);
    const rpc = new Rpc({ url: chain.rpcUrl });
    const { UniswapV2Router02 } = await loadArtifacts();
    const [{ address: token }] = await sql<{ address: string }[]>`select address from tokens order by created_block limit 1`;
    let time = Number((await rpc.getBlocks([await rpc.blockNumber()], false))[0]!.timestamp);
    const latencies: number[] = [];
    for (let i = 0; i < Number(args["live-blocks"]); i++) {
      const data = encodeFunctionData({
        abi: UniswapV2Router02.abi,
        functionName: "swapExactETHForTokens",
        args: [0n, [deployment.weth, token], deployment.deployer, 2n ** 40n],
      });
      await rpc.call("eth_sendTransaction", [
        { from: deployment.deployer, to: deployment.uniswapV2.router, data, value: "0x2386f26fc10000", gas: "0x2dc6c0", gasPrice: "0x0" },
      ]);
      time += 2;
      await rpc.call("evm_mine", [time]);
      const mined = performance.now();
      const block = await rpc.blockNumber();
      while ((await newestServedEventId(sql)) < block * EVENT_ID_BLOCK_FACTOR) await sleep(5);
      latencies.push(performance.now() - mined);
      await sleep(200 + Math.random() * 400);
    }
    const rssMb = peakRssMb(worker.proc.pid!);
    await stopWorker(worker);

    const result = {
      chain_events: simulated.groundTruth.stats.events,
      chain_events_per_second: Math.round(simulated.groundTruth.stats.events / seconds),
      logs: counts.logs,
      logs_per_second: Math.round(counts.logs / seconds),
      events: counts.events,
      blocks: counts.blocks,
      backfill_seconds: Number(seconds.toFixed(2)),
      events_per_second: Math.round(counts.events / seconds),
      blocks_per_second: Math.round(counts.blocks / seconds),
      peak_rss_mb: Math.round(rssMb),
      live_blocks: latencies.length,
      freshness_p50_ms: Math.round(percentile(latencies, 50)),
      freshness_p95_ms: Math.round(percentile(latencies, 95)),
      poll_ms: POLL_MS,
    };
    printTable([
      { metric: "chain events (simulator: Swap/Transfer/Mint/Burn logs)", value: result.chain_events, target: ">= 200000" },
      { metric: "logs indexed (token/LP Transfer, Sync, Swap, Mint, Burn)", value: result.logs, target: "" },
      { metric: "API event rows (swaps, liquidity, transfers)", value: result.events, target: "" },
      { metric: "blocks indexed", value: result.blocks, target: "" },
      { metric: "backfill chain events/s", value: result.chain_events_per_second, target: ">= 5000" },
      { metric: "backfill logs/s", value: result.logs_per_second, target: "" },
      { metric: "backfill API events/s", value: result.events_per_second, target: "" },
      { metric: "backfill blocks/s", value: result.blocks_per_second, target: "" },
      { metric: "worker peak RSS (MB)", value: result.peak_rss_mb, target: "<= 1024" },
      { metric: `freshness p50 (ms, ${POLL_MS} ms poll)`, value: result.freshness_p50_ms, target: "" },
      { metric: `freshness p95 (ms, ${POLL_MS} ms poll)`, value: result.freshness_p95_ms, target: "<= 1000" },
    ]);
    if (args.json) console.log(JSON.stringify(result));
  } finally {
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
