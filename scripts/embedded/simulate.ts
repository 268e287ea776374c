/**
 * Child process of `npm start`: runs the market simulator on the dev chain (backfill, then live)
 * and reports progress as JSON lines on stdout for the launcher's progress bar.
 * argv[2]: JSON of { rpcUrl, dataDir, seed, days, startTimestamp }.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Deployment, deploymentFile } from "@/devchain/deploy";
import { runSimulation } from "@/devchain/simulator/runner";

type Args = { rpcUrl: string; dataDir: string; seed: number; days: number; startTimestamp: number };
const args = JSON.parse(process.argv[2]) as Args;

const controller = new AbortController();
for (const s of ["SIGINT", "SIGTERM"] as const) process.on(s, () => controller.abort());

await runSimulation({
  rpcUrl: args.rpcUrl,
  deployment: JSON.parse(readFileSync(deploymentFile(args.dataDir), "utf8")) as Deployment,
  seed: args.seed,
  days: args.days,
  startTimestamp: args.startTimestamp,
  live: true,
  groundTruthPath: path.join(args.dataDir, "devchain", "ground-truth.json"),
  signal: controller.signal,
  onProgress: (p) => console.log(JSON.stringify({ simulator: p })),
});
