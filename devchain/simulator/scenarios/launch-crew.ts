/**
 * Who buys at a launch: the sybil bundle (wallets of one funder buying in the launch block itself),
 * snipers (the next 1-3 blocks), and insiders (wallets the creator paid, out before the dump).
 */
import type { Address } from "viem";
import { getAmountIn, getAmountOut } from "../../swap-math";
import { type Actors, spendable } from "../actors";
import type { PlantedEntry } from "../ground-truth";
import type { PoolSeed } from "../market";
import type { Rng } from "../random";
import { ether, MINUTE, type Moment, part, type Sim } from "../sim";
import { type SimToken, SNIPER_BLOCKS } from "../tokens";
import { buy, sellAll } from "./trade";

export interface Bundle {
  funder: Address;
  wallets: Address[];
  /** Ether each wallet spends in the launch block, computed for the pool as it will be. */
  spends: bigint[];
  funded: Moment;
}

/** Funds 6-12 new wallets from one new funder so that together they can buy 15-30% of the supply
 * right after the launch transaction. */
export function fundBundle(sim: Sim, params: PoolSeed, rng: Rng): Bundle {
  const count = rng.int(6, 12);
  const each = part(params.supply, rng.float(0.15, 0.3) / count);
  let reserveEth = params.ethIn;
  let reserveToken = params.liquiditySupply;
  const spends: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const spend = getAmountIn(each, reserveEth, reserveToken);
    reserveToken -= getAmountOut(spend, reserveEth, reserveToken);
    reserveEth += spend;
    spends.push(spend);
  }
  const funder = sim.wallets.create(
    "funder",
    spends.reduce((a, b) => a + b, ether(2)),
  );
  const wallets = spends.map((spend) => {
    const wallet = sim.wallets.create("sybil");
    sim.market.sendEth(funder, wallet, spend + ether(rng.float(0.005, 0.03)));
    return wallet;
  });
  return { funder, wallets, spends, funded: sim.now };
}

/** The bundle's buys, in the launch block right after the launch; the wallets sell over the
 * following hours. */
export function bundleBuys(
  sim: Sim,
  actors: Actors,
  token: SimToken,
  bundle: Bundle,
  exitWindow: number,
  rng: Rng,
): void {
  let bought = 0n;
  bundle.wallets.forEach((wallet, i) => {
    bought += sim.market.buyWithEth(wallet, token.address, bundle.spends[i]);
    sim.tradeAt(token, token.launchSlot + rng.int(20 * MINUTE, Math.max(21 * MINUTE, exitWindow)), () =>
      sellAll(sim, actors, wallet, token),
    );
  });
  sim.truth.plant({
    kind: "sybil_launch",
    token: token.address,
    pair: token.pair.address,
    funder: bundle.funder,
    wallets: bundle.wallets,
    ...sim.now,
    fundingBlock: bundle.funded.block,
    fundingTimestamp: bundle.funded.timestamp,
    supplyPct: Number((bought * 10_000n) / sim.market.ledger.supplyOf(token.address)) / 100,
  });
  sim.label(token, "sybil_launch");
}

/** How long a sniper holds before taking profit: by the end of it every sniper has sold. */
export const SNIPER_HOLD = { min: 3 * MINUTE, max: 45 * MINUTE } as const;

/** 1-3 snipers buy in the 1st to 3rd block after the launch and take profit within the hour. */
export function snipe(sim: Sim, actors: Actors, token: SimToken, rng: Rng): void {
  const buys: (Moment & { wallet: Address; ethIn: string })[] = [];
  const launch = { block: token.truth.launchBlock, timestamp: token.truth.launchTimestamp };
  let entry: PlantedEntry | undefined;
  for (const sniper of rng.sample(actors.snipers, rng.int(1, 3))) {
    sim.tradeAt(token, token.launchSlot + rng.int(1, SNIPER_BLOCKS), () => {
      const eth = part(sim.market.wethReserve(token.address), rng.float(0.03, 0.12));
      if (eth > part(spendable(sim, sniper), 0.2) || buy(sim, actors, sniper, token, eth) === 0n) return;
      entry ??= sim.truth.plant({
        kind: "sniper",
        token: token.address,
        pair: token.pair.address,
        wallets: [],
        ...launch,
        buys,
      });
      buys.push({ wallet: sniper, ...sim.now, ethIn: eth.toString() });
      entry.wallets!.push(sniper);
      sim.label(token, "sniped");
      sim.tradeAt(token, sim.slot + rng.int(SNIPER_HOLD.min, SNIPER_HOLD.max), () =>
        sellAll(sim, actors, sniper, token),
      );
    });
  }
}

/** Wallets the creator funded before the launch: they buy in the first blocks and sell shortly
 * before the dump. */
export function insiderTrades(
  sim: Sim,
  actors: Actors,
  token: SimToken,
  insiders: Address[],
  funded: Moment,
  dumpSlot: number,
  rng: Rng,
): void {
  const buys: (Moment & { wallet: Address; ethIn: string })[] = [];
  const exits: (Moment & { wallet: Address; ethOut: string })[] = [];
  sim.truth.plant({
    kind: "insider",
    token: token.address,
    pair: token.pair.address,
    funder: token.creator,
    wallets: insiders,
    ...sim.now,
    fundingBlock: funded.block,
    fundingTimestamp: funded.timestamp,
    buys,
    exits,
  });
  sim.label(token, "insiders");
  for (const wallet of insiders) {
    sim.tradeAt(token, token.launchSlot + rng.int(1, SNIPER_BLOCKS + 1), () => {
      const eth = part(spendable(sim, wallet), rng.float(0.85, 0.95));
      if (buy(sim, actors, wallet, token, eth) === 0n) return;
      buys.push({ wallet, ...sim.now, ethIn: eth.toString() });
      const exitSlot = Math.max(sim.slot + 2 * MINUTE, dumpSlot - rng.int(2 * MINUTE, 20 * MINUTE));
      sim.tradeAt(token, exitSlot, () =>
        exits.push({ wallet, ...sim.now, ethOut: sellAll(sim, actors, wallet, token).toString() }),
      );
    });
  }
}
