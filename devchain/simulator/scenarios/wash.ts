/**
 * A wash-trading ring: one funder pays a few new wallets, which then trade the same token back
 * and forth for hours: a wallet buys, and a few blocks later either sells the same tokens itself or
 * hands them to another ring wallet that sells them. Volume grows, positions stay flat.
 */
import type { Address } from "viem";
import { spendable } from "../actors";
import type { Rng } from "../random";
import { ether, MINUTE, part, type Sim } from "../sim";
import type { SimToken } from "../tokens";

export function scheduleWashRing(sim: Sim, token: SimToken, start: number, end: number, rng: Rng): void {
  const { market } = sim;
  const fundAt = Math.max(token.launchSlot + 1, start - rng.int(10 * MINUTE, 60 * MINUTE));
  sim.at(fundAt, () => {
    const size = rng.int(3, 6);
    const funder = sim.wallets.create("funder", ether(10 + size * 6));
    const ring: Address[] = [];
    for (let i = 0; i < size; i++) {
      const wallet = sim.wallets.create("wash_trader");
      market.sendEth(funder, wallet, ether(rng.float(1.5, 4)));
      ring.push(wallet);
    }
    const entry = sim.truth.plant({
      kind: "wash_ring",
      token: token.address,
      pair: token.pair.address,
      funder,
      wallets: ring,
      fundingBlock: sim.now.block,
      fundingTimestamp: sim.now.timestamp,
      cycles: 0,
      roundTrips: 0,
      volumeWei: "0",
      topUps: 0,
    });
    const addVolume = (wei: bigint) => {
      entry.volumeWei = (BigInt(entry.volumeWei as string) + wei).toString();
      sim.extend(entry);
    };
    const sellLater = (seller: Address, amount: bigint) =>
      sim.tradeAt(token, sim.slot + rng.int(1, 6), () => {
        addVolume(market.sellForEth(seller, token.address, amount));
        entry.roundTrips = (entry.roundTrips as number) + 1;
      });
    const cycle = () => {
      if (sim.slot >= end || token.rugged) return;
      const ready = ring.filter((w) => spendable(sim, w) >= ether(0.3));
      if (ready.length === 0) {
        // All the ring's ether is in tokens on their way back: the funder tops a wallet up (it
        // trades from the next block on), or the ring stops when the funder is out of ether.
        const topUp = ether(rng.float(1, 2));
        if (spendable(sim, funder) < topUp) return;
        market.sendEth(funder, rng.pick(ring), topUp);
        entry.topUps = (entry.topUps as number) + 1;
        sim.tradeAt(token, sim.slot + 1, cycle);
        return;
      }
      const trader = rng.pick(ready);
      const eth = [
        ether(rng.float(0.2, 1)),
        part(market.wethReserve(token.address), 0.25),
        spendable(sim, trader),
      ].reduce((a, b) => (a < b ? a : b));
      const bought = market.buyWithEth(trader, token.address, eth);
      if (bought > 0n) {
        if (entry.cycles === 0) {
          Object.assign(entry, sim.now);
          sim.label(token, "wash_trading");
        }
        entry.cycles = (entry.cycles as number) + 1;
        addVolume(eth);
        const other = rng.pick(ring.filter((w) => w !== trader));
        if (rng.chance(0.5)) sellLater(trader, bought);
        else
          sim.tradeAt(token, sim.slot + rng.int(1, 4), () => {
            market.transfer(token.address, trader, other, bought);
            sellLater(other, bought);
          });
      }
      sim.tradeAt(token, sim.slot + Math.max(1, Math.round(rng.exp(2.5 * MINUTE))), cycle);
    };
    sim.tradeAt(token, Math.max(start, sim.slot + 1), cycle);
  });
}
