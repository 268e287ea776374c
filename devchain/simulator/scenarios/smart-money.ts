/**
 * Smart money: a few wallets enter a launch once the snipers have taken their profit (they know
 * the snipers' selling is coming and buy after it, not into it) with a small position for the pool,
 * and sell out near the top, ahead of the dump they know is coming: just before the end of the
 * hype, or before the rug or the slow rug's first withdrawal if that comes sooner, and before any
 * whale sells out of it (watching for that while they hold). Each launch goes to the wallets with
 * the fewest positions so far, so every one builds a diversified record rather than a few crowding
 * into the same launches, and to enough of them that each closes RECORD_POSITIONS over the
 * backfill: smart money is a proven record, and one too short to prove anything is not planted as one.
 */
import type { Address } from "viem";
import { type Actors, spendable } from "../actors";
import type { PlantedEntry } from "../ground-truth";
import type { Rng } from "../random";
import { HOUR, MINUTE, type Moment, part, type Sim } from "../sim";
import { type SimToken, SNIPER_BLOCKS } from "../tokens";
import { SNIPER_HOLD } from "./launch-crew";
import { buy, sellAll } from "./trade";

/** Share of the pool's ether each position takes when a launch takes up to GROUP wallets (more share
 * it out): small enough that their own buying and selling together barely move the price, which the
 * crowd's hype is left to lift. */
const POSITION_SHARE = { min: 0.01, max: 0.03 } as const;
/** Wallets a launch takes: 4 or 5, or more where that leaves a record too short (smartMoneyPerLaunch). */
const GROUP = { min: 4, max: 5 } as const;
/**
 * Positions each smart-money wallet is planted to close over the backfill: more than the five closed
 * positions a confident record needs (MIN_CLOSED_POSITIONS in lib/scoring/weights.ts), since an
 * entry may be forgone. A wallet with fewer has no record to be recognised by, on any chain.
 */
export const RECORD_POSITIONS = 6;

/** The least number of wallets each smart-money launch takes for every wallet to close RECORD_POSITIONS
 * over `launches` such launches in the backfill (a demo's few days of launches, shared by many wallets). */
export function smartMoneyPerLaunch(wallets: number, launches: number): number {
  return launches === 0 ? 0 : Math.min(wallets, Math.ceil((RECORD_POSITIONS * wallets) / launches));
}
/** How often a holder checks for a whale's exit coming up. */
const WATCH = 5 * MINUTE;

/** When the launch dumps (what they get out ahead of); the least number of wallets it takes
 * (smartMoneyPerLaunch). */
export type SmartMoneyPlan = { dumpSlot: number; minWallets: number };

export function startSmartMoney(sim: Sim, actors: Actors, token: SimToken, plan: SmartMoneyPlan, rng: Rng): void {
  const { dumpSlot, minWallets } = plan;
  const exitBy = Math.min(dumpSlot, token.peakSlot);
  const entries: (Moment & { wallet: Address; ethIn: string })[] = [];
  const exits: (Moment & { wallet: Address; ethOut: string })[] = [];
  const dump = { dumpBlock: sim.writer.blockOf(dumpSlot), dumpTimestamp: sim.writer.timestampOf(dumpSlot) };
  let record: PlantedEntry | undefined;
  // Every sniper has sold by then (they buy in the sniper blocks and hold at most SNIPER_HOLD.max).
  const snipersOut = token.launchSlot + SNIPER_BLOCKS + SNIPER_HOLD.max;
  const window = exitBy - snipersOut;
  const count = Math.max(rng.int(GROUP.min, GROUP.max), minWallets);
  // A larger group shares out what GROUP.max would take, so together they move the price no more.
  const crowding = Math.min(1, GROUP.max / count);
  for (const wallet of leastInvested(actors, count, rng)) {
    const entrySlot = snipersOut + rng.int(1, Math.max(2, Math.min(10 * MINUTE, Math.floor(window * 0.1))));
    const exitSlot =
      exitBy - rng.int(2 * MINUTE, Math.max(3 * MINUTE, Math.min(20 * MINUTE, Math.floor(window * 0.1))));
    if (exitSlot < entrySlot + 5 * MINUTE) continue;
    actors.smartMoneyPositions.set(wallet, (actors.smartMoneyPositions.get(wallet) ?? 0) + 1);
    // A position not taken after all leaves the wallet first in line for the next launch.
    const forgo = () => actors.smartMoneyPositions.set(wallet, actors.smartMoneyPositions.get(wallet)! - 1);
    sim.tradeAt(token, entrySlot, () => {
      // Not worth entering only to leave again ahead of a whale within the hour.
      if (whaleExitDue(token, sim.slot, HOUR)) {
        forgo();
        return;
      }
      const share = rng.float(POSITION_SHARE.min, POSITION_SHARE.max) * crowding;
      const eth = part(sim.market.wethReserve(token.address), share);
      if (eth > part(spendable(sim, wallet), 0.3) || buy(sim, actors, wallet, token, eth) === 0n) {
        forgo();
        return;
      }
      record ??= sim.truth.plant({
        kind: "smart_money",
        token: token.address,
        pair: token.pair.address,
        wallets: [],
        entries,
        exits,
        ...dump,
      });
      entries.push({ wallet, ...sim.now, ethIn: eth.toString() });
      record.wallets!.push(wallet);
      const position = record;
      const watch = (): void => {
        if (sim.slot < exitSlot && !whaleExitDue(token, sim.slot, 2 * WATCH)) {
          sim.tradeAt(token, Math.min(exitSlot, sim.slot + WATCH), watch);
          return;
        }
        const got = sellAll(sim, actors, wallet, token);
        if (got === 0n) return;
        exits.push({ wallet, ...sim.now, ethOut: got.toString() });
        if (exits.length === 1) Object.assign(position, sim.now);
        sim.extend(position);
        if (exits.length >= 2) sim.label(token, "smart_money_exit");
      };
      sim.tradeAt(token, sim.slot + WATCH, watch);
    });
  }
}

/** Whether a whale is set to sell the token within `slots` after `slot`. */
function whaleExitDue(token: SimToken, slot: number, slots: number): boolean {
  return token.whaleExits.some((exit) => exit > slot && exit <= slot + slots);
}

/** `count` smart-money wallets with the fewest positions so far, ties in random order. */
function leastInvested(actors: Actors, count: number, rng: Rng): Address[] {
  const positions = (w: Address) => actors.smartMoneyPositions.get(w) ?? 0;
  return rng
    .shuffle(actors.smartMoney)
    .sort((a, b) => positions(a) - positions(b))
    .slice(0, count);
}
