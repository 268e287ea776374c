/** Whales: now and then a large buy of a hot token (a big share of its pool) held for hours, or a
 * large ether/stablecoin swap in the deep WETH/USD pool. */
import { type Actors, spendable } from "../actors";
import { HOUR, part, type Sim } from "../sim";
import { buy, sellAll } from "./trade";

export function startWhales(sim: Sim, actors: Actors): void {
  actors.whales.forEach((whale, i) => {
    const rng = sim.rng.fork(`whale/${i}`);
    const move = () => {
      const token = sim.tokens.hottest(sim.slot);
      if (token && rng.chance(0.6)) {
        const eth = part(sim.market.wethReserve(token.address), rng.float(0.2, 0.6));
        const bought = buy(sim, actors, whale, token, eth < part(spendable(sim, whale), 0.3) ? eth : 0n);
        if (bought > 0n) {
          const entry = sim.truth.plant({
            kind: "whale",
            token: token.address,
            wallets: [whale],
            ...sim.now,
            ethIn: eth.toString(),
          });
          const exitSlot = sim.slot + rng.int(4 * HOUR, 30 * HOUR);
          token.whaleExits.push(exitSlot);
          sim.tradeAt(token, exitSlot, () => {
            const got = sellAll(sim, actors, whale, token);
            sim.extend(entry);
            entry.ethOut = got.toString();
          });
        }
      } else {
        const { market } = sim;
        const usd = market.ledger.balanceOf(market.usd, whale);
        if (usd > 0n) market.sellForEth(whale, market.usd, usd);
        else market.buyWithEth(whale, market.usd, part(spendable(sim, whale), rng.float(0.05, 0.2)));
      }
      sim.after(rng.exp(10 * HOUR), move);
    };
    sim.at(rng.int(HOUR, 8 * HOUR), move);
  });
}
