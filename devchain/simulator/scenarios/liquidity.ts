/**
 * What creators do with the pool's liquidity: a rug pull (most of it out in one transaction, maybe
 * followed by dumping the tokens into what is left), a slow rug (out in many small steps while
 * selling the allocation), and the hard negative, an LP migration (all of it out, and back in a
 * block or two later).
 */
import type { PlantedEntry } from "../ground-truth";
import type { Rng } from "../random";
import { part, type Sim } from "../sim";
import type { SimToken } from "../tokens";

/** Share of the pool's liquidity that `lp` shares are, in percent with two decimals. */
function poolPct(sim: Sim, token: SimToken, lp: bigint): number {
  return Number((lp * 10_000n) / sim.market.ledger.supplyOf(token.pair.address)) / 100;
}

function creatorLp(sim: Sim, token: SimToken): bigint {
  return sim.market.ledger.balanceOf(token.pair.address, token.creator);
}

export function scheduleRugPull(sim: Sim, token: SimToken, slot: number, rng: Rng): void {
  const { market } = sim;
  sim.tradeAt(token, slot, () => {
    const lp = part(creatorLp(sim, token), rng.float(0.9, 1));
    const removedPct = poolPct(sim, token, lp);
    const wethReserveBefore = market.wethReserve(token.address);
    const [, wethOut] = market.removeLiquidity(token.creator, token.address, market.weth, lp);
    token.rugged = true;
    const entry = sim.truth.plant({
      kind: "rug_pull",
      token: token.address,
      pair: token.pair.address,
      wallets: [token.creator],
      ...sim.now,
      removedPct,
      wethRemoved: wethOut.toString(),
      wethReserveBefore: wethReserveBefore.toString(),
    });
    sim.label(token, "rug_pull");
    // Half the ruggers also dump their tokens into what is left, then unwrap everything.
    const dump = rng.chance(0.5);
    sim.after(rng.int(1, 3), () => {
      const held = market.ledger.balanceOf(token.address, token.creator);
      if (dump && held > 0n) entry.dumpEthOut = market.sellForEth(token.creator, token.address, held).toString();
      const weth = market.ledger.balanceOf(market.weth, token.creator);
      if (weth > 0n) market.unwrap(token.creator, weth);
    });
  });
}

/** Withdraws 12-22% of the creator's remaining liquidity every `stepGap` slots (no single step near
 * the 70% one-transaction threshold) until at most 10% of it is left, selling tokens on the way. */
export function scheduleSlowRug(sim: Sim, token: SimToken, start: number, stepGap: number, rng: Rng): void {
  const { market } = sim;
  const steps: { block: number; timestamp: number; removedPct: number }[] = [];
  let startLp = 0n;
  const entry: PlantedEntry = { kind: "slow_rug", token: token.address, pair: token.pair.address, wallets: [token.creator], steps };
  const step = () => {
    const lp = creatorLp(sim, token);
    if (steps.length === 0) {
      startLp = lp;
      sim.truth.plant(Object.assign(entry, sim.now));
    }
    const out = part(lp, rng.float(0.12, 0.22));
    steps.push({ ...sim.now, removedPct: poolPct(sim, token, out) });
    market.removeLiquidity(token.creator, token.address, market.weth, out);
    sim.extend(entry);
    const held = market.ledger.balanceOf(token.address, token.creator);
    if (rng.chance(0.6) && held > 0n) market.sellForEth(token.creator, token.address, part(held, rng.float(0.1, 0.3)));
    const left = creatorLp(sim, token);
    if (left * 10n > startLp) {
      sim.tradeAt(token, sim.slot + Math.round(stepGap * rng.float(0.7, 1.3)), step);
      return;
    }
    token.rugged = true;
    Object.assign(entry, { removedPct: Number(((startLp - left) * 10_000n) / startLp) / 100 });
    sim.label(token, "slow_rug");
  };
  sim.tradeAt(token, start, step);
}

/** Takes all of the creator's liquidity out and puts it back 1-2 blocks later; nobody trades the
 * token in between. */
export function scheduleMigration(sim: Sim, token: SimToken, slot: number, rng: Rng): void {
  const { market } = sim;
  sim.tradeAt(token, slot, () => {
    const lp = creatorLp(sim, token);
    const removedPct = poolPct(sim, token, lp);
    const [tokens, weth] = market.removeLiquidity(token.creator, token.address, market.weth, lp);
    const delay = rng.int(1, 2);
    token.frozenUntil = sim.slot + delay + 1;
    const entry = sim.truth.plant({ kind: "lp_migration", token: token.address, pair: token.pair.address, wallets: [token.creator], ...sim.now, removedPct });
    sim.at(sim.slot + delay, () => {
      const readded = market.addLiquidity(token.creator, token.address, market.weth, tokens, weth);
      sim.extend(entry);
      entry.readdedPct = poolPct(sim, token, readded);
      sim.label(token, "lp_migration");
    });
  });
}

/** About how many steps a slow rug takes (12-22% of the rest each, down to 10%). */
export const SLOW_RUG_STEPS = 13;
