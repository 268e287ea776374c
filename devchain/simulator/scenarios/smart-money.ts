/**
 * Smart money: a few wallets enter a launch early (right after the sniper blocks, before the crowd
 * arrives) with a small position for the pool, and sell out near the top, ahead of the dump they
 * know is coming: just before the end of the hype, or before the rug or the slow rug's first
 * withdrawal if that comes sooner. Each launch goes to the wallets with the fewest positions so
 * far, so every one builds a diversified record rather than a few crowding into the same launches.
 */
import type { Address } from "viem";
import { spendable, type Actors } from "../actors";
import type { PlantedEntry } from "../ground-truth";
import type { Rng } from "../random";
import { MINUTE, part, type Moment, type Sim } from "../sim";
import { SNIPER_BLOCKS, type SimToken } from "../tokens";
import { buy, sellAll } from "./trade";

/** Share of the pool's ether each position takes: small enough that their own buying and selling
 * together barely move the price, which the crowd's hype is left to lift. */
const POSITION_SHARE = { min: 0.01, max: 0.03 } as const;

export function startSmartMoney(sim: Sim, actors: Actors, token: SimToken, dumpSlot: number, rng: Rng): void {
  const exitBy = Math.min(dumpSlot, token.peakSlot);
  const entries: (Moment & { wallet: Address; ethIn: string })[] = [];
  const exits: (Moment & { wallet: Address; ethOut: string })[] = [];
  const dump = { dumpBlock: sim.writer.blockOf(dumpSlot), dumpTimestamp: sim.writer.timestampOf(dumpSlot) };
  let record: PlantedEntry | undefined;
  const window = exitBy - token.launchSlot;
  for (const wallet of leastInvested(actors, rng.int(3, 4), rng)) {
    const entrySlot = token.launchSlot + rng.int(SNIPER_BLOCKS + 1, Math.max(SNIPER_BLOCKS + 2, Math.min(10 * MINUTE, Math.floor(window * 0.1))));
    const exitSlot = exitBy - rng.int(2 * MINUTE, Math.max(3 * MINUTE, Math.min(20 * MINUTE, Math.floor(window * 0.1))));
    if (exitSlot < entrySlot + 5 * MINUTE) continue;
    actors.smartMoneyPositions.set(wallet, (actors.smartMoneyPositions.get(wallet) ?? 0) + 1);
    sim.tradeAt(token, entrySlot, () => {
      const eth = part(sim.market.wethReserve(token.address), rng.float(POSITION_SHARE.min, POSITION_SHARE.max));
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

/** `count` smart-money wallets with the fewest positions so far, ties in random order. */
function leastInvested(actors: Actors, count: number, rng: Rng): Address[] {
  const positions = (w: Address) => actors.smartMoneyPositions.get(w) ?? 0;
  return rng.shuffle(actors.smartMoney).sort((a, b) => positions(a) - positions(b)).slice(0, count);
}
