/**
 * A short simulation (1 day, 8 tokens: one of each planted fate) checked against the chain itself:
 * every planted scenario is in the ground truth, and what the ground truth says happened did happen
 * on chain, in the blocks it names.
 */
import { type Address, encodeFunctionData, type Hex, parseAbi, toEventSelector } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Deployment, FEE_WALLET } from "./deploy";
import { toQuantity } from "./encoding";
import type { RpcClient } from "./rpc";
import type { GroundTruth, PlantedEntry, PlantedKind } from "./simulator/ground-truth";
import { LOG_NAMES } from "./simulator/market";
import { SNIPER_HOLD } from "./simulator/scenarios/launch-crew";
import { SNIPER_BLOCKS } from "./simulator/tokens";
import { type Log, type SimulatedChain, simulateOnDevChain, topicAddress, words } from "./test/simulated-chain";

const SIGNATURES = {
  Transfer: "Transfer(address,address,uint256)",
  Approval: "Approval(address,address,uint256)",
  Swap: "Swap(address,uint256,uint256,uint256,uint256,address)",
  Mint: "Mint(address,uint256,uint256)",
  Burn: "Burn(address,uint256,uint256,address)",
  Sync: "Sync(uint112,uint112)",
  Deposit: "Deposit(address,uint256)",
  Withdrawal: "Withdrawal(address,uint256)",
  PairCreated: "PairCreated(address,address,address,uint256)",
  TokenLaunched: "TokenLaunched(address,address,address,string,string,uint256)",
  PoolCreated: "PoolCreated(address,address,uint24,int24,address)",
  Initialize: "Initialize(uint160,int24)",
  SwapV3: "Swap(address,address,int256,int256,uint160,uint128,int24)",
  MintV3: "Mint(address,address,int24,int24,uint128,uint256,uint256)",
  BurnV3: "Burn(address,int24,int24,uint128,uint256,uint256)",
  CollectV3: "Collect(address,address,int24,int24,uint128,uint128)",
  IncreaseLiquidity: "IncreaseLiquidity(uint256,uint128,uint256,uint256)",
  DecreaseLiquidity: "DecreaseLiquidity(uint256,uint128,uint256,uint256)",
  Collect: "Collect(uint256,address,uint256,uint256)",
  TokenCreated: "TokenCreated(address,address,address,string,string,uint256,uint24,uint256,bool)",
  Locked: "Locked(uint256,address,bool)",
  Released: "Released(uint256,address)",
} as const;
const TOPIC = Object.fromEntries(Object.entries(SIGNATURES).map(([k, v]) => [k, toEventSelector(v)])) as Record<
  keyof typeof SIGNATURES,
  Hex
>;
const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
]);

interface Tx {
  from: Address;
  to: Address | null;
  value: Hex;
  hash: Hex;
}

const ZERO = "0x0000000000000000000000000000000000000000";

describe("market simulator", { timeout: 60_000 }, () => {
  let sim: SimulatedChain;
  let deployment: Deployment;
  let truth: GroundTruth;
  let rpc: RpcClient;
  let allLogs: Log[];

  const entries = (kind: PlantedKind) => truth.planted.filter((p) => p.kind === kind);
  const tokenOf = (entry: PlantedEntry) => truth.tokens.find((t) => t.address === entry.token)!;
  const block = (n: number) => rpc.call<{ transactions: Tx[] }>("eth_getBlockByNumber", [toQuantity(n), true]);
  const receipt = (hash: Hex) => rpc.call<{ from: Address; logs: Log[] }>("eth_getTransactionReceipt", [hash]);
  const logsAt = (address: Address, topic: Hex, from: number, to = from) =>
    allLogs.filter(
      (l) =>
        l.address === address && l.topics[0] === topic && Number(l.blockNumber) >= from && Number(l.blockNumber) <= to,
    );
  const balanceAt = async (token: Address, holder: Address, blockNumber: number) =>
    BigInt(
      await rpc.call<Hex>("eth_call", [
        { to: token, data: encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [holder] }) },
        toQuantity(blockNumber),
      ]),
    );
  /** A pair's Burn: who sent it, the amounts out, and the reserves left (the Sync after it). */
  const burnOf = async (log: Log) => {
    const r = await receipt(log.transactionHash);
    const sync = r.logs.find((l) => l.address === log.address && l.topics[0] === TOPIC.Sync)!;
    return { from: r.from, burn: words(log.data), reserves: words(sync.data) };
  };

  beforeAll(async () => {
    // V2 launches only: simulator-v3.test.ts runs the V3 fates.
    sim = await simulateOnDevChain({ seed: 7, days: 1, tokens: 8, wallets: 120, v3Share: 0 });
    ({ deployment, truth, rpc, logs: allLogs } = sim);
  }, 600_000);
  afterAll(() => sim?.close());

  it("plants every scenario and labels its token", () => {
    const kinds = new Set(truth.planted.map((p) => p.kind));
    for (const kind of [
      "wash_ring",
      "sybil_launch",
      "rug_pull",
      "slow_rug",
      "smart_money",
      "sniper",
      "insider",
      "bot",
      "whale",
      "fresh",
      "market_maker",
      "lp_migration",
      "lp_burn",
      "airdrop",
      "cex_hot_wallet",
    ] as const) {
      expect(kinds, kind).toContain(kind);
    }
    const labels = new Set(truth.tokens.flatMap((t) => t.labels));
    for (const label of [
      "rug_pull",
      "slow_rug",
      "wash_trading",
      "sybil_launch",
      "smart_money_exit",
      "lp_migration",
      "lp_burn",
      "market_maker",
      "airdrop",
      "insiders",
      "sniped",
    ] as const) {
      expect(labels, label).toContain(label);
    }
    const classes = new Set(Object.values(truth.wallets));
    for (const c of [
      "smart_money",
      "sniper",
      "bot",
      "insider",
      "whale",
      "wash_trader",
      "fresh",
      "retail",
      "sybil",
      "market_maker",
      "creator",
      "cex_hot_wallet",
    ]) {
      expect(classes, c).toContain(c);
    }
    const rugged = truth.tokens.find((t) => t.labels.includes("rug_pull"))!;
    expect(rugged.flags).toContain("liquidity_pulled");
    const migrated = truth.tokens.find((t) => t.labels.includes("lp_migration") && !t.labels.includes("rug_pull"))!;
    expect(migrated.notFlags).toContain("liquidity_pulled");
  });

  it("emitted exactly the logs it counted, so no transaction reverted", () => {
    const inHistory = allLogs.filter((l) => Number(l.blockNumber) >= truth.timeline.fromBlock);
    for (const name of LOG_NAMES) {
      expect(inHistory.filter((l) => l.topics[0] === TOPIC[name]).length, name).toBe(truth.stats.logs[name]);
    }
    const events = inHistory.filter((l) =>
      [TOPIC.Swap, TOPIC.Transfer, TOPIC.Mint, TOPIC.Burn].includes(l.topics[0]),
    ).length;
    expect(events).toBe(truth.stats.events);
  });

  it("trades every quirk token in its pair, the fee-on-transfer ones paying their cut", () => {
    const inHistory = allLogs.filter((l) => Number(l.blockNumber) >= truth.timeline.fromBlock);
    for (const q of deployment.quirkTokens) {
      const swaps = inHistory.filter((l) => l.address === q.pool && l.topics[0] === TOPIC.Swap);
      expect(swaps.length, q.quirk).toBeGreaterThan(2);
    }
    const [deflating, , , walletFee] = deployment.quirkTokens;
    const cuts = (token: Address, to: Address) =>
      inHistory.filter((l) => l.address === token && l.topics[0] === TOPIC.Transfer && topicAddress(l.topics[2]) === to)
        .length;
    expect(cuts(deflating.address, ZERO)).toBeGreaterThan(2);
    expect(cuts(walletFee.address, FEE_WALLET)).toBeGreaterThan(2);
  });

  it("mines one block per 2-second slot up to the end of the history", async () => {
    const head = await rpc.call<{ number: Hex; timestamp: Hex }>("eth_getBlockByNumber", ["latest", false]);
    expect(Number(head.number)).toBe(truth.timeline.backfillToBlock);
    expect(Number(head.timestamp)).toBe(truth.timeline.backfillToTimestamp);
    expect(truth.timeline.backfillToBlock - truth.timeline.fromBlock + 1).toBe(86_400 / 2);
  });

  it("keeps every balance derivable from Transfer events (and WETH9's Deposit and Withdrawal)", async () => {
    const tokens = [deployment.weth, ...truth.tokens.map((t) => t.address)];
    const derived = new Map<string, bigint>();
    const move = (token: Address, from: Hex | null, to: Hex | null, value: bigint) => {
      const add = (holder: Hex | null, delta: bigint) => {
        const key = `${token}:${holder ? topicAddress(holder) : ZERO}`;
        derived.set(key, (derived.get(key) ?? 0n) + delta);
      };
      add(from, -value);
      add(to, value);
    };
    for (const l of allLogs) {
      if (!tokens.includes(l.address)) continue;
      const [value] = words(l.data);
      if (l.topics[0] === TOPIC.Transfer) move(l.address, l.topics[1], l.topics[2], value);
      else if (l.address === deployment.weth && l.topics[0] === TOPIC.Deposit)
        move(l.address, null, l.topics[1], value);
      else if (l.address === deployment.weth && l.topics[0] === TOPIC.Withdrawal)
        move(l.address, l.topics[1], null, value);
    }
    const holders = [...derived.keys()].filter((k) => !k.endsWith(`:${ZERO}`));
    const onChain = (await rpc.batch(
      holders.map((k) => {
        const [token, holder] = k.split(":") as [Address, Address];
        return {
          method: "eth_call",
          params: [
            { to: token, data: encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [holder] }) },
            "latest",
          ],
        };
      }),
    )) as Hex[];
    holders.forEach((k, i) => expect(BigInt(onChain[i]), k).toBe(derived.get(k)));
    for (const t of truth.tokens) {
      const supply = await rpc.call<Hex>("eth_call", [
        { to: t.address, data: encodeFunctionData({ abi: erc20, functionName: "totalSupply" }) },
        "latest",
      ]);
      expect(BigInt(supply)).toBe(BigInt(t.totalSupply));
    }
  });

  it("rug pulls: the creator takes at least 70% of the pool in one transaction", async () => {
    for (const rug of entries("rug_pull")) {
      const token = tokenOf(rug);
      const [burn] = logsAt(token.pair, TOPIC.Burn, rug.block!);
      const { from, burn: amounts, reserves } = await burnOf(burn);
      expect(from).toBe(token.creator);
      const i = deployment.weth < token.address ? 0 : 1;
      const share = Number((amounts[i] * 1000n) / (amounts[i] + reserves[i])) / 1000;
      expect(share).toBeGreaterThanOrEqual(0.7);
      expect(rug.removedPct as number).toBeGreaterThanOrEqual(70);
      expect(token.labelledAt.rug_pull).toEqual({ block: rug.block, timestamp: rug.timestamp });
    }
  });

  it("slow rugs: many withdrawals, none near 70%, together at least 90% of the creator's liquidity", async () => {
    for (const rug of entries("slow_rug")) {
      const token = tokenOf(rug);
      const burns = logsAt(token.pair, TOPIC.Burn, rug.block!, rug.toBlock!);
      expect(burns.length).toBeGreaterThanOrEqual(5);
      const i = deployment.weth < token.address ? 0 : 1;
      for (const burn of burns) {
        const { from, burn: amounts, reserves } = await burnOf(burn);
        expect(from).toBe(token.creator);
        expect(Number(amounts[i]) / Number(amounts[i] + reserves[i])).toBeLessThan(0.5);
      }
      const before = await balanceAt(token.pair, token.creator, rug.block! - 1);
      const after = await balanceAt(token.pair, token.creator, rug.toBlock!);
      expect(after * 10n).toBeLessThanOrEqual(before);
    }
  });

  it("LP migrations: everything out, then back in a block or two later", async () => {
    for (const migration of entries("lp_migration")) {
      const token = tokenOf(migration);
      expect(logsAt(token.pair, TOPIC.Burn, migration.block!)).toHaveLength(1);
      expect(logsAt(token.pair, TOPIC.Mint, migration.toBlock!)).toHaveLength(1);
      expect(migration.toBlock! - migration.block!).toBeLessThanOrEqual(2);
      expect(migration.readdedPct as number).toBeGreaterThan(95);
    }
  });

  it("LP burns: the creator's LP shares all go to the dead address", async () => {
    const dead = "0x000000000000000000000000000000000000dead";
    for (const burn of entries("lp_burn")) {
      const token = tokenOf(burn);
      const held = await balanceAt(token.pair, token.creator, burn.block! - 1);
      expect(held).toBeGreaterThan(0n);
      expect(await balanceAt(token.pair, token.creator, burn.block!)).toBe(0n);
      expect(await balanceAt(token.pair, dead, burn.block!)).toBe(held);
    }
  });

  it("sybil launches: one funder's wallets all buy in the launch block", async () => {
    for (const sybil of entries("sybil_launch")) {
      const token = tokenOf(sybil);
      expect(sybil.block).toBe(token.launchBlock);
      const funding = (await block(sybil.fundingBlock as number)).transactions;
      const buyers = new Set(logsAt(token.pair, TOPIC.Swap, token.launchBlock).map((l) => topicAddress(l.topics[2])));
      for (const wallet of sybil.wallets!) {
        expect(funding.some((tx) => tx.from === sybil.funder && tx.to === wallet && BigInt(tx.value) > 0n)).toBe(true);
        expect(buyers).toContain(wallet);
      }
      expect(sybil.wallets!.length).toBeGreaterThanOrEqual(6);
      expect(sybil.supplyPct as number).toBeGreaterThanOrEqual(10);
    }
  });

  it("snipers buy in the first three blocks; smart money and insiders sell before the dump", () => {
    for (const snipe of entries("sniper")) {
      const token = tokenOf(snipe);
      for (const buy of snipe.buys as { wallet: Address; block: number }[]) {
        expect(buy.block - token.launchBlock).toBeGreaterThanOrEqual(1);
        expect(buy.block - token.launchBlock).toBeLessThanOrEqual(3);
        expect(logsAt(token.pair, TOPIC.Swap, buy.block).some((l) => topicAddress(l.topics[2]) === buy.wallet)).toBe(
          true,
        );
      }
    }
    for (const sm of entries("smart_money")) {
      const exits = sm.exits as { wallet: Address; block: number }[];
      for (const exit of exits) expect(exit.block).toBeLessThan(sm.dumpBlock as number);
      if (tokenOf(sm).labels.includes("smart_money_exit")) expect(exits.length).toBeGreaterThanOrEqual(2);
      // Informed: in after every sniper has sold, out before any whale sells.
      const whaleExits = entries("whale")
        .filter((w) => w.token === sm.token && w.toBlock !== undefined)
        .map((w) => w.toBlock!);
      for (const entry of sm.entries as { wallet: Address; block: number }[]) {
        expect(entry.block - tokenOf(sm).launchBlock).toBeGreaterThan(SNIPER_BLOCKS + SNIPER_HOLD.max);
        const exit = exits.find((e) => e.wallet === entry.wallet);
        if (exit) expect(whaleExits.some((b) => b > entry.block && b <= exit.block)).toBe(false);
      }
    }
    for (const insider of entries("insider")) {
      const rug = truth.planted.find(
        (p) => (p.kind === "rug_pull" || p.kind === "slow_rug") && p.token === insider.token,
      );
      for (const exit of insider.exits as { block: number }[]) if (rug) expect(exit.block).toBeLessThan(rug.block!);
    }
  });

  it("wash rings: one funder, tokens passed between ring wallets, many round trips", async () => {
    for (const ring of entries("wash_ring")) {
      const token = tokenOf(ring);
      const funding = (await block(ring.fundingBlock as number)).transactions;
      for (const wallet of ring.wallets!)
        expect(funding.some((tx) => tx.from === ring.funder && tx.to === wallet)).toBe(true);
      const passed = logsAt(token.address, TOPIC.Transfer, ring.block!, ring.toBlock!).filter(
        (l) => ring.wallets!.includes(topicAddress(l.topics[1])) && ring.wallets!.includes(topicAddress(l.topics[2])),
      );
      expect(passed.length).toBeGreaterThan(0);
      expect(ring.roundTrips as number).toBeGreaterThanOrEqual(10);
    }
  });

  it("hard negatives: a two-sided market maker, an airdrop to many wallets, an exchange funding many", async () => {
    for (const mm of entries("market_maker")) {
      expect(mm.buys as number).toBeGreaterThan(0);
      expect(mm.sells as number).toBeGreaterThan(0);
    }
    for (const airdrop of entries("airdrop")) {
      const sent = logsAt(airdrop.token!, TOPIC.Transfer, airdrop.block!, airdrop.toBlock!).filter(
        (l) => topicAddress(l.topics[1]) === airdrop.funder,
      );
      expect(new Set(sent.map((l) => topicAddress(l.topics[2])))).toEqual(new Set(airdrop.wallets));
    }
    const [cex] = entries("cex_hot_wallet");
    expect(cex.wallets!.length).toBeGreaterThan(40);
    for (const fresh of entries("fresh")) {
      expect(fresh.timestamp!).toBeGreaterThanOrEqual(truth.timeline.backfillToTimestamp - 6 * 3600);
      const txs = (await block(fresh.block!)).transactions;
      expect(txs.some((tx) => tx.from === cex.funder && tx.to === fresh.wallets![0])).toBe(true);
    }
  });

  it("bots trade at least 10 times a minute", () => {
    const fast = entries("bot").filter(
      (b) => (b.trades as number) >= 20 && ((b.toTimestamp! - b.timestamp!) / 60) * 10 <= (b.trades as number),
    );
    expect(fast.length).toBeGreaterThan(0);
  });
});
