/**
 * The background population and how it gets its ether. Most retail and every fresh wallet are
 * paid out by one CEX-like hot wallet (real transfers: a funder of many unrelated wallets, the hard
 * negative for funder clustering); the other actors bring their ether from off-chain.
 */
import type { Address } from "viem";
import type { PlantedEntry } from "./ground-truth";
import { ether, type Sim } from "./sim";

export interface Actors {
  cex: Address;
  /** Retail wallets that have joined (been funded) so far. */
  retail: Address[];
  fresh: Address[];
  snipers: Address[];
  bots: Address[];
  whales: Address[];
  smartMoney: Address[];
  /** Launches each smart-money wallet has taken a position in, to spread them across launches. */
  smartMoneyPositions: Map<Address, number>;
  marketMakers: Address[];
  /** Token creators so far (some launch again), and those preparing a launch right now. */
  creators: Address[];
  launching: Set<Address>;
  /** Wallets that trade through WETH and the token->token swap instead of ether. */
  wethTraders: Set<Address>;
  cexPayouts: PlantedEntry;
}

/** How the --wallets background population divides (the rest is retail). */
const SHARES = { snipers: 0.02, bots: 0.012, whales: 0.015, smartMoney: 0.025, marketMakers: 0.005, fresh: 0.05 };
const MINIMUM = { snipers: 3, bots: 3, whales: 3, smartMoney: 5, marketMakers: 1, fresh: 3 };

function count(total: number, role: keyof typeof SHARES): number {
  return Math.max(MINIMUM[role], Math.round(total * SHARES[role]));
}

export function freshCount(sim: Sim): number {
  return count(sim.sizes.wallets, "fresh");
}

/** Creates the population in the first block; schedules retail and fresh wallets joining later. */
export function createActors(sim: Sim): Actors {
  const rng = sim.rng.fork("actors");
  const total = sim.sizes.wallets;
  const cex = sim.wallets.create("cex_hot_wallet", ether(10_000_000));
  const actors: Actors = {
    cex,
    retail: [],
    fresh: [],
    snipers: [],
    bots: [],
    whales: [],
    smartMoney: [],
    smartMoneyPositions: new Map(),
    marketMakers: [],
    creators: [],
    launching: new Set(),
    wethTraders: new Set(),
    cexPayouts: sim.truth.plant({ kind: "cex_hot_wallet", funder: cex, wallets: [], ...sim.now }),
  };
  for (let i = 0; i < count(total, "snipers"); i++)
    actors.snipers.push(sim.wallets.create("sniper", ether(rng.float(20, 40))));
  for (let i = 0; i < count(total, "bots"); i++) {
    const bot = sim.wallets.create("bot", ether(rng.float(15, 30)));
    actors.bots.push(bot);
    actors.wethTraders.add(bot);
  }
  for (let i = 0; i < count(total, "whales"); i++) {
    const whale = sim.wallets.create("whale", ether(rng.float(400, 2000)));
    // Whales also hold dollars, minted for them by the stablecoin's issuer (the deployer).
    sim.market.mintUsd(whale, BigInt(rng.int(50_000, 500_000)) * 10n ** 6n);
    actors.whales.push(whale);
  }
  for (let i = 0; i < count(total, "smartMoney"); i++) {
    // Half of smart money withdrew from the exchange, half came from elsewhere.
    const fromCex = i % 2 === 0;
    const sm = sim.wallets.create("smart_money", fromCex ? 0n : ether(rng.float(50, 150)));
    if (fromCex) payOut(sim, actors, sm, ether(rng.float(50, 150)));
    actors.smartMoney.push(sm);
  }
  for (let i = 0; i < count(total, "marketMakers"); i++) {
    const mm = sim.wallets.create("market_maker", ether(rng.float(150, 300)));
    actors.marketMakers.push(mm);
    actors.wethTraders.add(mm);
  }

  const special =
    count(total, "snipers") +
    count(total, "bots") +
    count(total, "whales") +
    count(total, "smartMoney") +
    count(total, "marketMakers");
  const retailCount = Math.max(10, total - special - freshCount(sim));
  // Retail: half is there from the start, the rest joins over the first three quarters.
  for (let i = 0; i < retailCount; i++) {
    const slot = i < retailCount / 2 ? 0 : sim.backfillAt(rng.float(0, 0.75));
    sim.at(slot, () => joinRetail(sim, actors, "retail"));
  }
  return actors;
}

/** A retail or fresh wallet arrives: funded by the exchange (most) or off-chain, maybe a WETH user. */
export function joinRetail(sim: Sim, actors: Actors, kind: "retail" | "fresh"): Address {
  const rng = sim.rng.fork(`join/${sim.slot}/${actors.retail.length + actors.fresh.length}`);
  const eth = ether(Math.min(rng.logNormal(1.2, 0.8), 20));
  const viaCex = kind === "fresh" || rng.chance(0.65);
  const wallet = sim.wallets.create(kind, viaCex ? 0n : eth);
  if (viaCex) payOut(sim, actors, wallet, eth);
  if (rng.chance(0.25)) actors.wethTraders.add(wallet);
  if (kind === "retail") actors.retail.push(wallet);
  else {
    actors.fresh.push(wallet);
    sim.truth.plant({ kind: "fresh", wallets: [wallet], funder: actors.cex, ...sim.now });
  }
  return wallet;
}

/** An exchange withdrawal: a real ether transfer from the hot wallet. */
export function payOut(sim: Sim, actors: Actors, wallet: Address, eth: bigint): void {
  sim.market.sendEth(actors.cex, wallet, eth);
  const entry = actors.cexPayouts;
  const wallets = entry.wallets!;
  if (!wallets.includes(wallet)) wallets.push(wallet);
  sim.extend(entry);
  entry.payouts = ((entry.payouts as number | undefined) ?? 0) + 1;
}

/** Ether an actor can spend in this block while keeping a little for later. */
export function spendable(sim: Sim, wallet: Address, keep = ether(0.005)): bigint {
  const eth = sim.market.ledger.availableEth(wallet);
  return eth > keep ? eth - keep : 0n;
}
