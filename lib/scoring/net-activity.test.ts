import { describe, expect, it } from "vitest";
import { addr, HEAD_BLOCK, healthyToken, holder, NOW, swap } from "./__fixtures__/token";
import { averageReputation, topHolderSummary } from "./holder-summary";
import { netActivity, recentFlows } from "./net-activity";
import { NO_EVIDENCE_REPUTATION } from "./no-evidence";

describe("net_activity", () => {
  it("follows the recent net flow relative to the position", () => {
    expect(netActivity({ balance: 1_000, recentBought: 500, recentSold: 0 })).toBe("accumulating");
    expect(netActivity({ balance: 1_000, recentBought: 0, recentSold: 500 })).toBe("distributing");
    expect(netActivity({ balance: 1_000, recentBought: 50, recentSold: 30 })).toBe("holding");
    expect(netActivity({ balance: 1_000, recentBought: 0, recentSold: 0 })).toBe("holding");
  });

  it("is exited when nothing or only dust is left", () => {
    expect(netActivity({ balance: 0, recentBought: 0, recentSold: 0 })).toBe("exited");
    expect(netActivity({ balance: 5, recentBought: 0, recentSold: 10_000 })).toBe("exited");
  });

  it("counts only the trades of the last day", () => {
    const w = addr("w");
    const flows = recentFlows(
      [
        swap({ wallet: w, direction: "buy", tokenAmount: 10, timestamp: NOW - 3_600 }),
        swap({ wallet: w, direction: "sell", tokenAmount: 4, timestamp: NOW - 7_200 }),
        swap({ wallet: w, direction: "buy", tokenAmount: 99, timestamp: NOW - 2 * 86_400 }),
      ],
      NOW,
    );
    expect(flows).toEqual({ recentBought: 10, recentSold: 4 });
  });
});

describe("top_holder_summary", () => {
  it("counts early movers and reports what they are doing now", () => {
    const input = healthyToken();
    const movers = input.earlyBuys.map((b) => b.wallet);
    const dumps = movers.map((wallet) => swap({ wallet, direction: "sell", tokenAmount: 1e9, block: HEAD_BLOCK - 50 }));
    const holders = input.holders.filter((h) => !movers.includes(h.address));
    const summary = topHolderSummary(holders, input.earlyBuys, dumps, NOW);
    expect(summary.earlyMoverCount).toBe(movers.length);
    expect(summary.earlyMoverNetActivity).toBe("exited");
    expect(topHolderSummary(input.holders, input.earlyBuys, dumps.slice(0, 1), NOW).earlyMoverNetActivity).toBe(
      "distributing",
    );
  });

  it("names the ten largest real holders for the reputation average, largest first", () => {
    const input = healthyToken();
    const pool = holder(addr("pool"), 1e30, { tags: ["pool"] });
    const ranked = input.holders
      .filter((h) => h.tags.length === 0)
      .sort((a, b) => b.balance - a.balance || a.address.localeCompare(b.address));
    const summary = topHolderSummary([pool, ...input.holders], [], [], NOW);
    expect(summary.reputationHolders).toEqual(ranked.slice(0, 10).map((h) => h.address));
    expect(summary.earlyMoverCount).toBe(0);
  });

  it("averages the reputations that exist, the no-evidence reputation when none does", () => {
    expect(averageReputation([20, 80, 80, 80, 80])).toBeCloseTo((20 + 4 * 80) / 5);
    expect(averageReputation([])).toBe(NO_EVIDENCE_REPUTATION);
  });
});
