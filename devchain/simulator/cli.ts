/**
 * npx tsx devchain/simulator/cli.ts [--rpc URL] [--seed N] [--days 3] [--tokens 24] [--wallets 400]
 *   [--events N] [--live] [--out PATH] [--data-dir DIR] [--deployment PATH] [--port N]
 *
 * Without --rpc it starts its own dev chain on --port (default: one the OS picks; stopped at the end). Without
 * --deployment it deploys the contracts first. Ground truth goes to --out (default
 * <data-dir>/devchain/ground-truth.json).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { type Deployment, deploy } from "../deploy";
import { historyAt } from "../history-clock";
import { type DevChain, startDevChain } from "../node";
import { DEFAULT_SIZES, DEFAULT_V3_SHARE, runSimulation, type SimulationProgress } from "./runner";

const { values: args } = parseArgs({
  options: {
    rpc: { type: "string" },
    port: { type: "string" },
    seed: { type: "string", default: "1" },
    days: { type: "string", default: String(DEFAULT_SIZES.days) },
    tokens: { type: "string", default: String(DEFAULT_SIZES.tokens) },
    wallets: { type: "string", default: String(DEFAULT_SIZES.wallets) },
    events: { type: "string" },
    "v3-share": { type: "string", default: String(DEFAULT_V3_SHARE) },
    live: { type: "boolean", default: false },
    out: { type: "string" },
    "data-dir": { type: "string", default: process.env.DATA_DIR ?? ".data" },
    deployment: { type: "string" },
  },
});

const dataDir = path.resolve(args["data-dir"]);
const seed = Number(args.seed);
const days = Number(args.days);
// Ends now, so that --live trades on from the present.
const { genesisTimestamp, startTimestamp } = historyAt(Math.floor(Date.now() / 1000) - Math.round(days * 86_400));

let chain: DevChain | undefined;
if (!args.rpc) {
  chain = await startDevChain({ port: args.port ? Number(args.port) : undefined, dataDir, seed, genesisTimestamp });
  console.error(`dev chain on ${chain.rpcUrl}`);
}
const rpcUrl = args.rpc ?? chain!.rpcUrl;
const deployment: Deployment = args.deployment
  ? (JSON.parse(readFileSync(args.deployment, "utf8")) as Deployment)
  : await deploy(rpcUrl, { dataDir });

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());

try {
  const { groundTruth, backfillMs } = await runSimulation({
    rpcUrl,
    deployment,
    seed,
    days,
    tokens: Number(args.tokens),
    wallets: Number(args.wallets),
    events: args.events ? Number(args.events) : undefined,
    v3Share: Number(args["v3-share"]),
    live: args.live,
    startTimestamp,
    groundTruthPath: args.out ?? path.join(dataDir, "devchain", "ground-truth.json"),
    signal: controller.signal,
    onProgress: printProgress,
  });
  const { timeline, stats } = groundTruth;
  process.stderr.write("\n");
  console.log(
    `backfill ${(backfillMs / 1000).toFixed(1)} s: blocks ${timeline.fromBlock}..${timeline.backfillToBlock}, ` +
      `${stats.transactions} transactions, ${stats.events} events ` +
      `(${Object.values(stats.logs).reduce((a, b) => a + b, 0)} logs), ` +
      `${groundTruth.tokens.length} tokens, ${groundTruth.planted.length} planted entries, ` +
      `${Math.round(stats.events / (backfillMs / 1000))} events/s`,
  );
} finally {
  await chain?.stop();
}

function printProgress(p: SimulationProgress): void {
  const rate = p.elapsedMs > 0 ? Math.round(p.events / (p.elapsedMs / 1000)) : 0;
  const tail = `block ${p.block}  ${p.transactions} txs  ${p.events} events  ${rate} ev/s`;
  if (p.phase === "live") {
    process.stderr.write(`\rlive: ${tail}   `);
    return;
  }
  const share = p.blocksDone / p.blocksTotal;
  const bar = "#".repeat(Math.round(share * 30)).padEnd(30, ".");
  const eta = p.etaMs === null ? "" : `  ETA ${Math.ceil(p.etaMs / 1000)} s`;
  process.stderr.write(`\r[${bar}] ${(share * 100).toFixed(1)}%  ${tail}${eta}   `);
}
