/**
 * The market-maker hard negative: one wallet trading both sides of a token for many hours against
 * the crowd, every ~10 minutes with small random sizes, leaning against its inventory. Two-sided and
 * frequent like a wash ring, but alone, funded by nobody in particular, never matching its own trades.
 */
import type { Actors } from "../actors";
import type { PlantedEntry } from "../ground-truth";
import type { Rng } from "../random";
import { ether, MINUTE, part, type Sim, weiToEther } from "../sim";
import type { SimToken } from "../tokens";
import { buy, holding, sell } from "./trade";

export function scheduleMarketMaker(
  sim: Sim,
  actors: Actors,
  token: SimToken,
  start: number,
  end: number,
  rng: Rng,
): void {
  const { market } = sim;
  const mm = rng.pick(actors.marketMakers);
  const targetEth = rng.float(0.3, 1);
  const entry: PlantedEntry & Record<"trades" | "buys" | "sells", number> = {
    kind: "market_maker",
    token: token.address,
    pair: token.pair.address,
    wallets: [mm],
    trades: 0,
    buys: 0,
    sells: 0,
  };
  const quote = () => {
    if (sim.slot >= end || token.rugged) return;
    const inventory = holding(sim, mm, token);
    const value = weiToEther(market.quote(token.address, market.weth, inventory));
    const buyChance = Math.min(0.9, Math.max(0.1, 0.5 + (0.4 * (targetEth - value)) / targetEth));
    const side = rng.chance(buyChance) ? "buys" : "sells";
    const size = ether(Math.min(rng.logNormal(0.05, 0.5), 0.03 * weiToEther(market.wethReserve(token.address))));
    const done =
      side === "buys"
        ? buy(sim, actors, mm, token, size)
        : sell(sim, actors, mm, token, part(inventory, rng.float(0.2, 0.5)));
    if (done > 0n) {
      if (entry.trades === 0) {
        sim.truth.plant(Object.assign(entry, sim.now));
        sim.label(token, "market_maker");
      }
      entry.trades++;
      entry[side]++;
      sim.extend(entry);
    }
    sim.tradeAt(token, sim.slot + Math.max(1, Math.round(rng.exp(10 * MINUTE))), quote);
  };
  sim.tradeAt(token, start, quote);
}
