/**
 * What creators do with the pool's liquidity: a rug pull (most of it out in one transaction, maybe
 * followed by dumping the tokens into what is left), a slow rug (out in many small steps while
 * selling the allocation), and the hard negatives, an LP migration (all of it out, and back in a
 * block or two later), on V2 LP shares burned for good, and on V3 fee claims from a position locked
 * for good. On V2 the creator
 * burns LP shares; on V3 it takes its position out of the locker once, then decreases its liquidity
 * and collects (one multicall per withdrawal).
 */
import type { Address } from "viem";
import type { PlantedEntry } from "../ground-truth";
import type { Rng } from "../random";
import { HOUR, MINUTE, part, type Sim } from "../sim";
import type { SimToken } from "../tokens";

/** Share of the pool's liquidity that `lp` is (LP shares, or V3 liquidity of the launch's position,
 * the pool's only one), in percent with two decimals. */
function poolPct(sim: Sim, token: SimToken, lp: bigint): number {
  const { market } = sim;
  const total = market.v3PoolOf(token.address)
    ? market.positionLiquidity(token.address)
    : market.ledger.supplyOf(token.pair.address);
  return Number((lp * 10_000n) / total) / 100;
}

/** The creator's liquidity: its LP shares, or its V3 position's liquidity. */
function creatorLp(sim: Sim, token: SimToken): bigint {
  const { market } = sim;
  return market.v3PoolOf(token.address)
    ? market.positionLiquidity(token.address)
    : market.ledger.balanceOf(token.pair.address, token.creator);
}

/** Takes `lp` of the creator's liquidity out; returns the (token, WETH) it received. */
function withdraw(sim: Sim, token: SimToken, lp: bigint): [bigint, bigint] {
  const { market } = sim;
  if (!market.v3PoolOf(token.address)) return market.removeLiquidity(token.creator, token.address, market.weth, lp);
  return market.decreaseLiquidity(token.creator, token.address, lp);
}

export function scheduleRugPull(sim: Sim, token: SimToken, slot: number, rng: Rng): void {
  const { market } = sim;
  sim.tradeAt(token, slot, () => {
    const lp = part(creatorLp(sim, token), rng.float(0.9, 1));
    const removedPct = poolPct(sim, token, lp);
    const wethReserveBefore = market.wethReserve(token.address);
    const [, wethOut] = withdraw(sim, token, lp);
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
  const entry: PlantedEntry = {
    kind: "slow_rug",
    token: token.address,
    pair: token.pair.address,
    wallets: [token.creator],
    steps,
  };
  const step = () => {
    const lp = creatorLp(sim, token);
    if (steps.length === 0) {
      startLp = lp;
      sim.truth.plant(Object.assign(entry, sim.now));
    }
    const out = part(lp, rng.float(0.12, 0.22));
    steps.push({ ...sim.now, removedPct: poolPct(sim, token, out) });
    withdraw(sim, token, out);
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
    const entry = sim.truth.plant({
      kind: "lp_migration",
      token: token.address,
      pair: token.pair.address,
      wallets: [token.creator],
      ...sim.now,
      removedPct,
    });
    sim.at(sim.slot + delay, () => {
      const readded = market.addLiquidity(token.creator, token.address, market.weth, tokens, weth);
      sim.extend(entry);
      entry.readdedPct = poolPct(sim, token, readded);
      sim.label(token, "lp_migration");
    });
  });
}

/** A creator whose V3 position is locked for good claims its trading fees through the locker every
 * 3-8 hours until `until`: what it receives is fees only, the liquidity stays. */
export function scheduleFeeClaims(sim: Sim, token: SimToken, until: number, rng: Rng): void {
  const { market } = sim;
  const claims: { block: number; timestamp: number; tokens: string; weth: string }[] = [];
  const entry: PlantedEntry = {
    kind: "fee_claims",
    token: token.address,
    pair: token.pair.address,
    wallets: [token.creator],
    claims,
  };
  sim.label(token, "locked_liquidity");
  const claim = () => {
    const [tokens, weth] = market.collectFees(token.creator, token.creator, token.address);
    if (claims.length === 0) sim.truth.plant(Object.assign(entry, sim.now));
    claims.push({ ...sim.now, tokens: tokens.toString(), weth: weth.toString() });
    sim.extend(entry);
    const next = sim.slot + rng.int(3 * HOUR, 8 * HOUR);
    if (next < until) sim.tradeAt(token, next, claim);
  };
  sim.tradeAt(token, sim.slot + rng.int(1 * HOUR, 4 * HOUR), claim);
}

/** The dead address: LP shares sent there can never be redeemed. */
const DEAD: Address = "0x000000000000000000000000000000000000dead";

/** An honest V2 creator burns all its LP shares 10-60 minutes after the launch: the pool can no
 * longer be pulled. */
export function scheduleLpBurn(sim: Sim, token: SimToken, rng: Rng): void {
  const { market } = sim;
  sim.tradeAt(token, sim.slot + rng.int(10 * MINUTE, 60 * MINUTE), () => {
    const lp = creatorLp(sim, token);
    if (lp === 0n) return;
    const burnedPct = poolPct(sim, token, lp);
    market.transfer(token.pair.address, token.creator, DEAD, lp);
    sim.truth.plant({
      kind: "lp_burn",
      token: token.address,
      pair: token.pair.address,
      wallets: [token.creator],
      ...sim.now,
      burnedPct,
    });
    sim.label(token, "lp_burn");
  });
}

/** About how many steps a slow rug takes (12-22% of the rest each, down to 10%). */
export const SLOW_RUG_STEPS = 13;
