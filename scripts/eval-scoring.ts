/**
 * `npm run eval:scoring -- --seeds N [--first-seed S] [--json]`: for each seed, simulates a market
 * on a fresh dev chain, indexes and scores it into a fresh database, and compares the flags,
 * wallet classes, risk levels and reputations with the simulator's ground truth (issue 4's and
 * issue 15's targets). Exits 1 when a target is missed.
 * Options: --days, --tokens, --wallets size the simulation (the defaults are the smallest that tell
 * the wallet classes apart, docs/methodology.md "Validation"); --v3-share is the share of launches on
 * Uniswap V3 (flags are reported per protocol too, with the same targets); --json adds one JSON
 * object on the last line.
 */
import { parseArgs } from "node:util";
import { DEFAULT_V3_SHARE } from "@/devchain/simulator/runner";
import { compareSeed } from "./eval/metrics";
import { printReport, summarize } from "./eval/report";
import { runSeed } from "./eval/run-seed";

const { values: args } = parseArgs({
  options: {
    seeds: { type: "string", default: "2" },
    "first-seed": { type: "string", default: "1" },
    days: { type: "string", default: "5" },
    tokens: { type: "string", default: "32" },
    wallets: { type: "string", default: "250" },
    "v3-share": { type: "string", default: String(DEFAULT_V3_SHARE) },
    json: { type: "boolean", default: false },
  },
});
const say = (s: string) => console.error(`[eval:scoring] ${s}`);

async function main() {
  const first = Number(args["first-seed"]);
  const seeds = Array.from({ length: Number(args.seeds) }, (_, i) => first + i);
  const size = {
    days: Number(args.days),
    tokens: Number(args.tokens),
    wallets: Number(args.wallets),
    v3Share: Number(args["v3-share"]),
  };
  const results = [];
  for (const seed of seeds) {
    const { truth, scored } = await runSeed(seed, size, say);
    results.push(compareSeed(truth, scored));
  }
  const summary = summarize(results, seeds);
  printReport(summary);
  if (args.json) console.log(JSON.stringify(summary));
  if (!summary.targets_met) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
