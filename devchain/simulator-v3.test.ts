/**
 * A short simulation with every launch on Uniswap V3 (the V3 launchpad, its locker, SwapRouter and
 * the position manager), checked against the chain: the writer already compared each pool's price
 * and liquidity with the simulator's mirror after every batch; here the logs, the rugs, the locked
 * launches and the balances.
 */
import { type Address, encodeFunctionData, type Hex, parseAbi, toEventSelector } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deployment } from "./deploy";
import { toQuantity } from "./encoding";
import type { RpcClient } from "./rpc";
import type { GroundTruth } from "./simulator/ground-truth";
import { type Log, type SimulatedChain, simulateOnDevChain, topicAddress, words } from "./test/simulated-chain";

const TOPIC = {
  Transfer: toEventSelector("Transfer(address,address,uint256)"),
  SwapV3: toEventSelector("Swap(address,address,int256,int256,uint160,uint128,int24)"),
  IncreaseLiquidity: toEventSelector("IncreaseLiquidity(uint256,uint128,uint256,uint256)"),
  DecreaseLiquidity: toEventSelector("DecreaseLiquidity(uint256,uint128,uint256,uint256)"),
  Collect: toEventSelector("Collect(uint256,address,uint256,uint256)"),
};
const abi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function ownerOf(uint256) view returns (address)",
  "function locks(uint256) view returns (address owner, bool withdrawable)",
]);

describe("market simulator on Uniswap V3", { timeout: 60_000 }, () => {
  let sim: SimulatedChain;
  let deployment: Deployment;
  let truth: GroundTruth;
  let rpc: RpcClient;
  let allLogs: Log[];

  const npmLogs = (topic: Hex, positionId: string) =>
    allLogs.filter(
      (l) =>
        l.address === deployment.uniswapV3.positionManager &&
        l.topics[0] === topic &&
        BigInt(l.topics[1]) === BigInt(positionId),
    );
  const call = async (to: Address, functionName: "balanceOf" | "ownerOf" | "locks", args: unknown[]) =>
    rpc.call<Hex>("eth_call", [{ to, data: encodeFunctionData({ abi, functionName, args } as never) }, "latest"]);

  beforeAll(async () => {
    sim = await simulateOnDevChain({ seed: 11, days: 1, tokens: 9, wallets: 120, v3Share: 1 });
    ({ deployment, truth, rpc, logs: allLogs } = sim);
  }, 600_000);
  afterAll(() => sim?.close());

  it("launches every token on the V3 launchpad, trades through SwapRouter, emits exactly the logs it counted", () => {
    expect(truth.tokens.length).toBe(9);
    for (const t of truth.tokens)
      expect(t).toMatchObject({ protocol: "uniswap-v3", launchpad: "BaseBlast", initialLiquidityWeth: "0" });
    const inHistory = allLogs.filter((l) => Number(l.blockNumber) >= truth.timeline.fromBlock);
    for (const [name, topic] of Object.entries(TOPIC)) {
      expect(inHistory.filter((l) => l.topics[0] === topic).length, name).toBe(
        truth.stats.logs[name as keyof typeof truth.stats.logs],
      );
    }
    const pools = new Set(truth.tokens.map((t) => t.pair));
    expect(allLogs.filter((l) => l.topics[0] === TOPIC.SwapV3 && pools.has(l.address)).length).toBeGreaterThan(100);
  });

  it("rug pulls: the creator takes its position from the locker, removes 90%+ in one DecreaseLiquidity", async () => {
    const rugs = truth.planted.filter((p) => p.kind === "rug_pull");
    expect(rugs.length).toBeGreaterThan(0);
    for (const rug of rugs) {
      const token = truth.tokens.find((t) => t.address === rug.token)!;
      expect(token.withdrawable).toBe(true);
      const [added] = npmLogs(TOPIC.IncreaseLiquidity, token.positionId!);
      const [removed] = npmLogs(TOPIC.DecreaseLiquidity, token.positionId!);
      expect(Number(removed.blockNumber)).toBe(rug.block);
      expect(Number((words(removed.data)[0] * 1000n) / words(added.data)[0]) / 1000).toBeGreaterThanOrEqual(0.9);
      const tx = await rpc.call<{ from: Address }>("eth_getTransactionByHash", [removed.transactionHash]);
      expect(tx.from).toBe(token.creator);
      expect(
        topicAddress(await call(deployment.uniswapV3.positionManager, "ownerOf", [BigInt(token.positionId!)])),
      ).toBe(token.creator);
      expect(token.flags).toContain("liquidity_pulled");
    }
  });

  it("locked launches keep their position in the locker; their creators only claim its fees", async () => {
    const locked = truth.tokens.filter((t) => t.labels.includes("locked_liquidity"));
    expect(locked.length).toBeGreaterThan(0);
    const [locker] = deployment.lockers;
    for (const token of locked) {
      expect(token).toMatchObject({ withdrawable: false, locker: locker.address });
      expect(token.notFlags).toContain("liquidity_pulled");
      expect(
        topicAddress(await call(deployment.uniswapV3.positionManager, "ownerOf", [BigInt(token.positionId!)])),
      ).toBe(locker.address);
      expect(npmLogs(TOPIC.DecreaseLiquidity, token.positionId!)).toEqual([]);
      const claims = truth.planted.find((p) => p.kind === "fee_claims" && p.token === token.address)!;
      const collects = npmLogs(TOPIC.Collect, token.positionId!);
      expect(collects.map((l) => Number(l.blockNumber))).toEqual(
        (claims.claims as { block: number }[]).map((c) => c.block),
      );
      for (const l of collects) expect(topicAddress(`0x${l.data.slice(2, 66)}`)).toBe(token.creator);
    }
  });

  it("keeps every launch token's balance derivable from its Transfer events", async () => {
    const tokens = new Set(truth.tokens.map((t) => t.address));
    const derived = new Map<string, bigint>();
    for (const l of allLogs) {
      if (l.topics[0] !== TOPIC.Transfer || !tokens.has(l.address)) continue;
      const [value] = words(l.data);
      for (const [holder, sign] of [
        [topicAddress(l.topics[1]), -1n],
        [topicAddress(l.topics[2]), 1n],
      ] as const) {
        const key = `${l.address}:${holder}`;
        derived.set(key, (derived.get(key) ?? 0n) + sign * value);
      }
    }
    const holders = [...derived.keys()].filter((k) => !k.endsWith(":0x0000000000000000000000000000000000000000"));
    const onChain = await rpc.batch(
      holders.map((k) => {
        const [token, holder] = k.split(":") as [Address, Address];
        return {
          method: "eth_call",
          params: [
            { to: token, data: encodeFunctionData({ abi, functionName: "balanceOf", args: [holder] }) },
            toQuantity(truth.timeline.backfillToBlock),
          ],
        };
      }),
    );
    holders.forEach((k, i) => expect(BigInt(onChain[i] as Hex), k).toBe(derived.get(k)));
  });
});
