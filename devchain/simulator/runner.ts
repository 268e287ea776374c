/**
 * runSimulation: builds the backfilled history (one block per 2-second slot from `startTimestamp`
 * to now, as fast as the node executes it), then, if live, keeps mining a block every 2 seconds of
 * wall-clock time until the signal aborts. The ground truth is written at the end of the backfill,
 * every 30 seconds while live, and when stopped. While it runs it drives the chain: outside
 * clients' transactions are mined once it is live and caught up with the clock, and the ones the
 * node recorded on an earlier run of the same chain are replayed where they were (chain-writer.ts).
 */
import { type Address, decodeAbiParameters, type Hex } from "viem";
import { type Artifacts, loadArtifacts } from "../compile";
import { type Deployment, FEE_WALLET, pairAddress, usdOf } from "../deploy";
import { lower } from "../encoding";
import { writeJsonAtomic } from "../files";
import { RpcClient } from "../rpc";
import { sortTokens } from "../swap-math";
import { createActors } from "./actors";
import { ChainWriter } from "./chain-writer";
import { type GroundTruth, GroundTruthRecorder } from "./ground-truth";
import { Ledger, type PairInfo, type TransferFee } from "./ledger";
import { type Contracts, Market } from "./market";
import { adoptOutsideEffects } from "./outside-effects";
import { controllers, trueOwnership } from "./ownership";
import { startBots } from "./scenarios/bots";
import { startCrowd, startFreshArrivals } from "./scenarios/crowd";
import { scheduleLaunches } from "./scenarios/launches";
import { startQuirkTrading } from "./scenarios/quirks";
import { startWhales } from "./scenarios/whales";
import { DAY, Sim, type SimSizes, SLOT_SECONDS } from "./sim";

/** `deploy()`'s output as read back from deployment.json (any address case; the deployer, Hardhat
 * account #0, may be left out). */
export type DeploymentInput = Omit<Deployment, "rpcUrl" | "deployBlock" | "deployer"> & { deployer?: string };

export interface SimulationOptions {
  rpcUrl: string;
  deployment: DeploymentInput;
  seed: number;
  /** Days of backfilled history (default 3). */
  days?: number;
  /** Tokens launched in the backfilled history (default 24). */
  tokens?: number;
  /** Background traders (default 400). */
  wallets?: number;
  /** Swap + transfer + liquidity events to produce in the backfill, for benchmarks. */
  events?: number;
  /** Share of launches that go through the V3 launchpad (0..1; default DEFAULT_V3_SHARE). */
  v3Share?: number;
  /** Keep trading, a block every 2 s, until `signal` aborts. */
  live?: boolean;
  /**
   * Unix seconds of the first simulated block: pinned (devchain/history-clock.ts) for a history that
   * must be the same at any hour, `days` before now for one that goes live.
   */
  startTimestamp: number;
  /** Where to write the ground truth (not written when absent). */
  groundTruthPath?: string;
  signal?: AbortSignal;
  onProgress?: (progress: SimulationProgress) => void;
  /** What happened to outside transactions, a line each (default: console.warn). */
  onNotice?: (message: string) => void;
}

export interface SimulationProgress {
  phase: "backfill" | "live";
  /** Blocks of the backfilled history mined so far, out of blocksTotal (live: blocks since). */
  blocksDone: number;
  blocksTotal: number;
  block: number;
  timestamp: number;
  transactions: number;
  events: number;
  elapsedMs: number;
  /** Estimated time to the end of the backfill; null while live. */
  etaMs: number | null;
}

export interface SimulationResult {
  groundTruth: GroundTruth;
  backfillMs: number;
}

export const DEFAULT_SIZES = { days: 3, tokens: 24, wallets: 400 } as const;
/**
 * About two launches in five go through the V3 launchpad, as on Base, where most launches are concentrated-liquidity
 * pools.
 */
export const DEFAULT_V3_SHARE = 0.4;
const PROGRESS_EVERY_MS = 200;
const LIVE_TRUTH_EVERY_SLOTS = 15;

export async function runSimulation(options: SimulationOptions): Promise<SimulationResult> {
  const sizes: SimSizes = {
    days: options.days ?? DEFAULT_SIZES.days,
    tokens: options.tokens ?? DEFAULT_SIZES.tokens,
    wallets: options.wallets ?? DEFAULT_SIZES.wallets,
    events: options.events,
    v3Share: options.v3Share ?? DEFAULT_V3_SHARE,
  };
  const { signal } = options;
  const artifacts = await loadArtifacts();
  const rpc = new RpcClient(options.rpcUrl);
  const deployment = await normalize(options.deployment, rpc, artifacts);
  const launchpads = [...deployment.launchpads, ...(deployment.v3 ? [deployment.v3.launchpad] : [])];
  const pairs = mirroredPairs(deployment, artifacts);
  const [latest, deployerNonce, deployerEth, wrappedEth, positions, ...rest] = (await rpc.batch([
    { method: "eth_getBlockByNumber", params: ["latest", false] },
    { method: "eth_getTransactionCount", params: [deployment.deployer, "latest"] },
    { method: "eth_getBalance", params: [deployment.deployer, "latest"] },
    { method: "eth_getBalance", params: [deployment.weth, "latest"] },
    // The position manager's totalSupply: every position so far (none burnt), so the next id follows.
    deployment.v3
      ? { method: "eth_call", params: [{ to: deployment.v3.positionManager, data: "0x18160ddd" }, "latest"] }
      : { method: "eth_chainId", params: [] },
    ...launchpads.map((l) => ({ method: "eth_getTransactionCount", params: [l.address, "latest"] })),
    ...pairs.map((p) => ({ method: "eth_call", params: [{ to: p.address, data: "0x0902f1ac" }, "latest"] })),
  ])) as [{ number: Hex; timestamp: Hex }, Hex, Hex, Hex, Hex, ...Hex[]];
  const launchpadNonces = rest.slice(0, launchpads.length);
  const reserves = rest.slice(launchpads.length);

  const { startTimestamp } = options;
  if (startTimestamp <= Number(latest.timestamp)) {
    throw new Error(
      `the chain's latest block (${Number(latest.timestamp)}) ` +
        `is not before the simulation start (${startTimestamp}); ` +
        "start the dev chain with an earlier genesisTimestamp",
    );
  }
  const backfillSlots = Math.ceil(sizes.days * DAY);
  const ledger = new Ledger();
  const writer = new ChainWriter(options.rpcUrl, {
    startTimestamp,
    slotSeconds: SLOT_SECONDS,
    blockBeforeStart: Number(latest.number),
    expectedReserves: (pair) => ledger.reservesAt(pair),
    expectedV3: (pool): [bigint, bigint] => market.v3State(pool),
    adoptOutside: (hashes, block): Promise<ReadonlySet<Address>> => adoptOutsideEffects(rpc, market, hashes, block),
    notice: options.onNotice ?? ((message) => console.warn(`devchain simulator: ${message}`)),
  });
  const nonces = new Map(launchpads.map((l, i) => [l.address, Number(launchpadNonces[i])]));
  const market = new Market(ledger, writer, artifacts, deployment, nonces);
  if (deployment.v3) market.nextPositionId = BigInt(positions) + 1n;
  market.adopt(deployment.deployer, Number(deployerNonce), BigInt(deployerEth));
  mirrorDeployment(market, deployment, BigInt(wrappedEth), pairs, reserves);

  const truth = new GroundTruthRecorder();
  truth.classify(deployment.deployer, "deployer");
  const sim = new Sim(options.seed, sizes, backfillSlots, market, writer, truth);
  sim.at(0, () => {
    const actors = createActors(sim);
    startCrowd(sim, actors);
    startFreshArrivals(sim, actors);
    startBots(sim, actors);
    startWhales(sim, actors);
    scheduleLaunches(sim, actors);
    startQuirkTrading(sim, actors);
  });

  const started = Date.now();
  let reported = 0;
  const progress = (phase: SimulationProgress["phase"], force = false) => {
    if (!options.onProgress || (!force && Date.now() - reported < PROGRESS_EVERY_MS)) return;
    reported = Date.now();
    const done = Math.min(writer.minedSlot + 1, backfillSlots);
    const elapsedMs = Date.now() - started;
    options.onProgress({
      phase,
      blocksDone: phase === "backfill" ? done : writer.minedSlot + 1 - backfillSlots,
      blocksTotal: phase === "backfill" ? backfillSlots : writer.minedSlot + 1 - backfillSlots,
      block: writer.blockOf(writer.minedSlot),
      timestamp: writer.timestampOf(writer.minedSlot),
      transactions: writer.txCount,
      events: market.events,
      elapsedMs,
      etaMs: phase === "backfill" && done > 0 ? Math.round((elapsedMs / done) * (backfillSlots - done)) : null,
    });
  };
  const runSlot = async (slot: number) => {
    await writer.beginBlock(slot);
    market.ledger.startBlock();
    sim.slot = slot;
    for (let job = sim.scheduler.take(slot); job; job = sim.scheduler.take(slot)) job();
    await writer.endBlock();
  };
  const snapshot = (live: boolean): GroundTruth => {
    const through = Math.max(writer.minedSlot, 0);
    const lastBackfill = Math.min(through, backfillSlots - 1);
    const controllerOf = controllers(truth);
    for (const t of truth.tokens) truth.own(t.address, trueOwnership(ledger, truth, controllerOf, t.address));
    return truth.snapshot({
      seed: options.seed,
      chainId: deployment.chainId,
      generatedAt: new Date().toISOString(),
      timeline: {
        slotSeconds: SLOT_SECONDS,
        fromBlock: writer.blockOf(0),
        fromTimestamp: startTimestamp,
        backfillToBlock: writer.blockOf(lastBackfill),
        backfillToTimestamp: writer.timestampOf(lastBackfill),
        throughBlock: writer.blockOf(through),
        throughTimestamp: writer.timestampOf(through),
        live,
      },
      stats: { transactions: writer.txCount, logs: { ...market.logs }, events: market.events },
    });
  };
  const writeTruth = (live: boolean) => {
    const groundTruth = snapshot(live);
    if (options.groundTruthPath) writeJsonAtomic(options.groundTruthPath, groundTruth);
    return groundTruth;
  };

  await writer.attach();
  try {
    for (
      let slot = sim.scheduler.nextSlot();
      slot !== undefined && slot < backfillSlots && !signal?.aborted;
      slot = sim.scheduler.nextSlot()
    ) {
      await runSlot(slot);
      progress("backfill");
    }
    if (!signal?.aborted) await writer.mineEmpty(backfillSlots - 1);
    await writer.drain();
    const backfillMs = Date.now() - started;
    progress("backfill", true);
    let groundTruth = writeTruth(false);
    if (!options.live) return { groundTruth, backfillMs };

    let lastTruthSlot = writer.minedSlot;
    while (!signal?.aborted) {
      const due = Math.floor((Date.now() / 1000 - startTimestamp) / SLOT_SECONDS);
      // Every slot gets its block; when catching up, stretches without jobs are mined in bulk.
      while (writer.minedSlot < due && !signal?.aborted) await runSlot(Math.min(sim.scheduler.nextSlot() ?? due, due));
      // Caught up with the clock: outside transactions go into the block just mined (never into the
      // history a restart rebuilds, which ends before now).
      await writer.flush({ admitOutside: true });
      progress("live");
      if (writer.minedSlot - lastTruthSlot >= LIVE_TRUTH_EVERY_SLOTS) {
        lastTruthSlot = writer.minedSlot;
        writeTruth(true);
      }
      await sleepUntil((startTimestamp + (due + 1) * SLOT_SECONDS) * 1000, signal);
    }
    await writer.drain();
    groundTruth = writeTruth(true);
    return { groundTruth, backfillMs };
  } finally {
    // Best effort: the chain may be gone already, and a failure must not hide the run's own error.
    await writer.release().catch(() => undefined);
  }
}

async function normalize(d: DeploymentInput, rpc: RpcClient, artifacts: Artifacts): Promise<Contracts> {
  const deployer = d.deployer ?? (await rpc.call<string[]>("eth_accounts"))[0];
  const weth = lower(d.weth);
  const usd = lower(usdOf(d).address);
  const factory = lower(d.uniswapV2.factory);
  return {
    chainId: d.chainId,
    deployer: lower(deployer),
    weth,
    usd,
    factory,
    router: lower(d.uniswapV2.router),
    launchpads: d.launchpads
      .filter((l) => l.protocol === "uniswap-v2")
      .map((l) => ({ ...l, address: lower(l.address) })),
    wethUsdPair: pairAddress(artifacts, factory, weth, usd),
    v3: v3Contracts(d),
    quirks: (d.quirkTokens ?? []).map((q) => ({ address: lower(q.address), quirk: q.quirk, quote: lower(q.quote) })),
  };
}

function v3Contracts(d: DeploymentInput): Contracts["v3"] {
  const launchpad = d.launchpads.find((l) => l.protocol === "uniswap-v3");
  const locker = d.lockers[0];
  if (!d.uniswapV3 || !launchpad || !locker) return undefined;
  return {
    factory: lower(d.uniswapV3.factory),
    positionManager: lower(d.uniswapV3.positionManager),
    swapRouter: lower(d.uniswapV3.swapRouter),
    launchpad: { ...launchpad, address: lower(launchpad.address) },
    locker: lower(locker.address),
  };
}

/** The deployment's V2 pairs the market trades in: WETH against each dollar (the 6-decimals one
 * first), and each quirk token's pair. */
function mirroredPairs(d: Contracts, artifacts: Artifacts): PairInfo[] {
  const dollars = [...new Set([d.usd, ...d.quirks.map((q) => q.quote)])].filter((q) => q !== d.weth);
  const pairs = [...dollars.map((q) => [d.weth, q]), ...d.quirks.map((q) => [q.address, q.quote])];
  return pairs.map(([a, b]) => {
    const [token0, token1] = sortTokens(a, b);
    return { address: pairAddress(artifacts, d.factory, a, b), token0, token1 };
  });
}

/** The cut each quirk token's code takes of a transfer (deploy.ts): DeflatingERC20 burns 1% of
 * every transfer; WalletFeeToken pays 3% to its fee wallet unless its owner (the deployer) sends or receives;
 * TaxToken burns its taxes on trades with its pair. */
function quirkFee(quirk: Contracts["quirks"][number]["quirk"], owner: Address, pair: Address): TransferFee | null {
  if (quirk === "fee-on-transfer") return (_from, _to, value) => ({ cut: value / 100n, sink: null });
  if (quirk === "fee-to-wallet")
    return (from, to, value) =>
      from === owner || to === owner ? null : { cut: (value * 300n) / 10_000n, sink: FEE_WALLET };
  // TaxToken burns its buy tax (2%) on transfers out of its pair and its sell tax (5%) on transfers into it.
  if (quirk === "raisable-tax")
    return (from, to, value) => {
      const bps = from === owner || to === owner ? 0n : from === pair ? 200n : to === pair ? 500n : 0n;
      return bps > 0n ? { cut: (value * bps) / 10_000n, sink: null } : null;
    };
  return null;
}

/** What the deployment left on chain as the ledger's starting state: the ether behind WETH, the
 * pairs' reserves, and the quirk tokens' fees. */
function mirrorDeployment(
  market: Market,
  deployment: Contracts,
  wrappedEth: bigint,
  pairs: PairInfo[],
  reserves: Hex[],
): void {
  market.ledger.setEth(deployment.weth, wrappedEth);
  pairs.forEach((pair, i) => {
    const [reserve0, reserve1] = decodeAbiParameters([{ type: "uint112" }, { type: "uint112" }], reserves[i]);
    market.ledger.addPair(pair);
    market.ledger.mint(pair.token0, pair.address, reserve0);
    market.ledger.mint(pair.token1, pair.address, reserve1);
  });
  for (const q of deployment.quirks) {
    const pair = pairs.find((p) => [p.token0, p.token1].includes(q.address) && [p.token0, p.token1].includes(q.quote));
    const fee = pair && quirkFee(q.quirk, deployment.deployer, pair.address);
    if (fee) market.ledger.setTransferFee(q.address, fee);
  }
}

function sleepUntil(epochMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, epochMs - Date.now()));
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
