/** Bots: sessions of many small, fast trades (one every 2-8 seconds) on the token of the moment,
 * through WETH, flat at the end of each session. */
import type { Actors } from "../actors";
import type { PlantedEntry } from "../ground-truth";
import { ether, HOUR, part, type Sim } from "../sim";
import { buy, holding, sell } from "./trade";

export function startBots(sim: Sim, actors: Actors): void {
  actors.bots.forEach((bot, i) => {
    const rng = sim.rng.fork(`bot/${i}`);
    const session = () => {
      const token = sim.tokens.hottest(sim.slot);
      if (!token) {
        sim.after(rng.exp(HOUR), session);
        return;
      }
      let entry: PlantedEntry | undefined;
      const record = (received: bigint) => {
        if (received === 0n) return;
        entry ??= sim.truth.plant({ kind: "bot", token: token.address, wallets: [bot], ...sim.now, trades: 0 });
        entry.trades = (entry.trades as number) + 1;
        sim.extend(entry);
      };
      let left = rng.int(25, 80);
      const trade = () => {
        const live = sim.tokens.tradable(token, sim.slot) && !token.rugged;
        const inventory = holding(sim, bot, token);
        if (!live || left === 0) {
          if (live) record(sell(sim, actors, bot, token, inventory));
          sim.after(rng.exp(5 * HOUR), session);
          return;
        }
        record(
          inventory > 0n && rng.chance(0.5)
            ? sell(sim, actors, bot, token, part(inventory, rng.float(0.5, 1)))
            : buy(sim, actors, bot, token, ether(rng.float(0.005, 0.04))),
        );
        left--;
        sim.after(rng.int(1, 4), trade);
      };
      trade();
    };
    sim.at(rng.int(HOUR / 2, 4 * HOUR), session);
  });
}
