/**
 * Smart money: a few wallets enter a token early (after the sniper blocks, well before the crowd
 * peaks) with modest size, and sell out ahead of the dump they know is coming: before the end of
 * the hype, and before the rug or the slow rug's first withdrawal if that comes sooner.
 */
import type { Address } from "viem";
import { spendable, type Actors } from "../actors";
import type { PlantedEntry } from "../ground-truth";
import type { Rng } from "../random";
import { MINUTE, part, type Moment, type Sim } from "../sim";
import type { SimToken } from "../tokens";
import { buy, sellAll } from "./trade";

export function startSmartMoney(sim: Sim, actors: Actors, token: SimToken, dumpSlot: number, rng: Rng): void {
  const exitBy = Math.min(dumpSlot, token.peakSlot);
  const entries: (Moment & { wallet: Address; ethIn: string })[] = [];
  const exits: (Moment & { wallet: Address; ethOut: string })[] = [];
  const dump = { dumpBlock: sim.writer.blockOf(dumpSlot), dumpTimestamp: sim.writer.timestampOf(dumpSlot) };
  let record: PlantedEntry | undefined;
  const window = exitBy - token.launchSlot;
  for (const wallet of rng.sample(actors.smartMoney, rng.int(2, 4))) {
    const entrySlot = token.launchSlot + rng.int(10, Math.max(20, Math.min(20 * MINUTE, Math.floor(window * 0.2))));
    const exitSlot = exitBy - rng.int(10 * MINUTE, Math.max(11 * MINUTE, Math.min(60 * MINUTE, Math.floor(window * 0.2))));
    if (exitSlot < entrySlot + 5 * MINUTE) continue;
    sim.tradeAt(token, entrySlot, () => {
      const eth = part(sim.market.wethReserve(token.address), rng.float(0.03, 0.1));
      if (eth > part(spendable(sim, wallet), 0.3) || buy(sim, actors, wallet, token, eth) === 0n) return;
      record ??= sim.truth.plant({ kind: "smart_money", token: token.address, pair: token.pair.address, wallets: [], entries, exits, ...dump });
      entries.push({ wallet, ...sim.now, ethIn: eth.toString() });
      record.wallets!.push(wallet);
      const position = record;
      sim.tradeAt(token, exitSlot, () => {
        const got = sellAll(sim, actors, wallet, token);
        if (got === 0n) return;
        exits.push({ wallet, ...sim.now, ethOut: got.toString() });
        if (exits.length === 1) Object.assign(position, sim.now);
        sim.extend(position);
        if (exits.length >= 2) sim.label(token, "smart_money_exit");
      });
    });
  }
}
