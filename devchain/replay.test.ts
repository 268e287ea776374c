/** Determinism (same seed and times: same chain, block hashes included, and same ground truth)
 * and live mode (a block every 2 seconds, the ground truth following). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deploy } from "./deploy";
import { historyAt } from "./history-clock";
import { startDevChain } from "./node";
import { RpcClient } from "./rpc";
import { runSimulation, type SimulationOptions } from "./simulator/runner";

type Sizes = Pick<
  SimulationOptions,
  "days" | "tokens" | "wallets" | "startTimestamp" | "live" | "signal" | "onProgress"
>;

async function simulate(genesisTimestamp: number, sizes: Sizes) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "devchain-replay-"));
  const chain = await startDevChain({ dataDir, genesisTimestamp, seed: 11 });
  try {
    const deployment = await deploy(chain.rpcUrl);
    const { groundTruth } = await runSimulation({ rpcUrl: chain.rpcUrl, deployment, seed: 11, ...sizes });
    const head = await new RpcClient(chain.rpcUrl).call<{ hash: string; timestamp: string }>("eth_getBlockByNumber", [
      "latest",
      false,
    ]);
    return { groundTruth: { ...groundTruth, generatedAt: "" }, head, genesisHash: chain.state.genesisHash };
  } finally {
    await chain.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe("replay and live", { timeout: 120_000 }, () => {
  it("replays the same chain and ground truth from the same seed", async () => {
    const { genesisTimestamp, startTimestamp } = historyAt();
    const sizes = { days: 0.25, tokens: 4, wallets: 40, startTimestamp };
    const [a, b] = await Promise.all([simulate(genesisTimestamp, sizes), simulate(genesisTimestamp, sizes)]);
    expect(a.genesisHash).toBe(b.genesisHash);
    expect(a.head.hash).toBe(b.head.hash);
    expect(a.groundTruth).toEqual(b.groundTruth);
    expect(a.groundTruth.tokens).toHaveLength(4);
  });

  // Live mode follows the process clock by design: it is the market of a running `npm start`.
  it("keeps mining a block every 2 seconds when live, until stopped", async () => {
    const { genesisTimestamp, startTimestamp } = historyAt(Math.floor(Date.now() / 1000) - 1800);
    const controller = new AbortController();
    let liveSince = 0;
    const run = simulate(genesisTimestamp, {
      days: 1800 / 86_400,
      tokens: 2,
      wallets: 30,
      startTimestamp,
      live: true,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase !== "live") return;
        liveSince ||= Date.now();
        if (Date.now() - liveSince > 5000) controller.abort();
      },
    });
    const { groundTruth, head } = await run;
    expect(groundTruth.timeline.live).toBe(true);
    expect(groundTruth.timeline.throughBlock - groundTruth.timeline.backfillToBlock).toBeGreaterThanOrEqual(2);
    // Blocks stay on the 2-second slots and never run ahead of the clock, however busy the machine.
    expect((Number(head.timestamp) - startTimestamp) % 2).toBe(0);
    expect(Number(head.timestamp)).toBeLessThanOrEqual(Date.now() / 1000 + 2);
  });
});
