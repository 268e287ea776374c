/**
 * `npm start`'s market shows what the product detects: on the first start's history (its seed, days
 * and the simulator's default sizes), by the end of the backfill the wallets the simulator plants as
 * smart money are classified smart_money, and smart_money_exiting is raised on the tokens the ground
 * truth says they exit, and nowhere else. Before each such wallet was planted with a record long
 * enough to be recognised, none was (docs/methodology.md, Validation).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { GroundTruth } from "@/devchain/simulator/ground-truth";
import { DEFAULT_SIZES } from "@/devchain/simulator/runner";
import { DEMO_MARKET } from "../embedded/chain";
import { runSeed, type Scored } from "./run-seed";

describe("npm start's market", { timeout: 60_000 }, () => {
  let truth: GroundTruth;
  let scored: Scored;

  beforeAll(async () => {
    const size = { ...DEFAULT_SIZES, days: DEMO_MARKET.days };
    ({ truth, scored } = await runSeed(DEMO_MARKET.seed, size, () => {}, { snapshots: [1] }));
  }, 300_000);

  it("classifies at least 8 of every 10 planted smart-money wallets as smart money", () => {
    const planted = Object.entries(truth.wallets).filter(([, c]) => c === "smart_money");
    const recognised = planted.filter(([w]) => scored.wallets.get(w.toLowerCase()) === "smart_money");
    expect(planted.length).toBeGreaterThanOrEqual(10);
    expect(recognised.length / planted.length).toBeGreaterThanOrEqual(0.8);
  });

  it("raises smart_money_exiting on the tokens smart money exits, and on no other", () => {
    const raised = (t: { flags: string[] }) => t.flags.includes("smart_money_exiting");
    const exited = truth.tokens.filter(raised).map((t) => t.address.toLowerCase());
    expect(exited.length).toBeGreaterThan(0);
    expect(
      scored.tokens
        .filter(raised)
        .map((t) => t.address.toLowerCase())
        .sort(),
    ).toEqual(exited.sort());
  });
});
