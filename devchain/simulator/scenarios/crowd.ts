/**
 * The crowd: retail and fresh wallets trading the tokens that are in fashion (drawn by the hype
 * cycle's intensity), selling what they hold more often once the hype is over, now and then moving
 * tokens or ether to another wallet or trading the stablecoin. With an events target the crowd
 * trades as often as needed to reach it by the end of the backfill, and tops up to it in its last
 * backfill tick as far as that block's gas budget allows.
 */
import type { Address } from "viem";
import { type Actors, freshCount, joinRetail, payOut, spendable } from "../actors";
import type { Rng } from "../random";
import { ether, HOUR, MINUTE, part, type Sim, weiToEther } from "../sim";
import type { SimToken } from "../tokens";
import { buy, holding, sell } from "./trade";

/** A crowd wallet trades about once per this many slots. */
const WALLET_TRADE_GAP = 6 * HOUR;
const TICK_SLOTS = 10;
/** Live, someone is watching: the crowd trades at least every ~10 seconds. */
const LIVE_TRADES_PER_SLOT = 0.2;
/** Swap + transfer + liquidity events of an average crowd trade. */
const EVENTS_PER_TRADE = 4;

export function startCrowd(sim: Sim, actors: Actors): void {
  const rng = sim.rng.fork("crowd");
  // The crowd's trades arrive as a Poisson process, drawn in stretches of about 20 seconds: the
  // same flow as drawing each block, but a busy crowd fills fewer, fuller blocks.
  const tick = () => {
    const gap = rng.int(1, 2 * TICK_SLOTS);
    const trades = rng.poisson(tradesPerSlot(sim, actors) * gap);
    // A block takes what its gas budget allows (the draw near the end of a backfill with a target can ask for more).
    for (let i = 0; i < trades && sim.market.roomForTrade; i++) act(sim, actors, rng);
    // The Poisson draws end short of an events target about half the time: the last backfill tick
    // trades on until it is reached (a bounded number of times, as a trade may emit no event), or
    // until its block is full: a shortfall larger than a block holds stays short.
    const target = sim.sizes.events;
    if (target && sim.slot < sim.backfillSlots && sim.slot + gap >= sim.backfillSlots) {
      for (let tries = 0; sim.market.events < target && tries < 10 * target && sim.market.roomForTrade; tries++)
        act(sim, actors, rng);
    }
    sim.after(gap, tick);
  };
  sim.at(1, tick);
}

function tradesPerSlot(sim: Sim, actors: Actors): number {
  const base = (actors.retail.length + actors.fresh.length) / WALLET_TRADE_GAP;
  const remaining = sim.backfillSlots - sim.slot;
  if (remaining <= 0) return Math.max(base, LIVE_TRADES_PER_SLOT);
  const target = sim.sizes.events;
  if (!target) return base;
  const needed = (target - sim.market.events) / EVENTS_PER_TRADE / remaining;
  return Math.max(base, needed);
}

function act(sim: Sim, actors: Actors, rng: Rng): void {
  const crowd = [...actors.retail, ...actors.fresh];
  if (crowd.length < 2) return;
  const wallet = rng.pick(crowd);
  const friend = rng.pick(actors.retail.length > 1 ? actors.retail : crowd);
  const held = heldTokens(sim, wallet);
  const roll = rng.next();
  if (roll < 0.04 && held.length > 0 && friend !== wallet) {
    const token = rng.pick(held);
    const amount = part(holding(sim, wallet, token), rng.float(0.1, 0.5));
    if (amount > 0n) sim.market.transfer(token.address, wallet, friend, amount);
  } else if (roll < 0.06 && friend !== wallet) {
    const gift = part(spendable(sim, wallet), rng.float(0.05, 0.3));
    if (gift > 0n) sim.market.sendEth(wallet, friend, gift);
  } else if (roll < 0.09) {
    tradeStablecoin(sim, wallet, rng);
  } else {
    tradeToken(sim, actors, wallet, held, rng);
  }
}

/** Buys a fashionable token, or sells one the wallet holds (more likely once its hype is over). */
function tradeToken(sim: Sim, actors: Actors, wallet: Address, held: SimToken[], rng: Rng): void {
  const { tokens } = sim;
  const candidate = held.length > 0 ? rng.pick(held) : undefined;
  if (candidate && !rng.chance(tokens.buyBias(candidate, sim.slot))) {
    const amount = holding(sim, wallet, candidate);
    sell(sim, actors, wallet, candidate, rng.chance(0.4) ? amount : part(amount, rng.float(0.3, 0.9)));
    return;
  }
  const token = tokens.pickByIntensity(rng, sim.slot);
  if (!token) return;
  const available = spendable(sim, wallet, ether(0.01));
  if (available < ether(0.003)) {
    // Out of ether: sometimes another withdrawal from the exchange.
    if (rng.chance(0.3)) payOut(sim, actors, wallet, ether(rng.float(0.5, 2.5)));
    return;
  }
  buy(sim, actors, wallet, token, ether(Math.min(rng.logNormal(0.06, 1.0), 0.5 * weiToEther(available))));
}

/** Ether to the stablecoin and back, or a token bought with stablecoins over two hops. */
function tradeStablecoin(sim: Sim, wallet: Address, rng: Rng): void {
  const { market } = sim;
  const usd = market.ledger.balanceOf(market.usd, wallet);
  if (usd === 0n) {
    const eth = part(spendable(sim, wallet), rng.float(0.2, 0.5));
    if (eth > 0n) market.buyWithEth(wallet, market.usd, eth);
    return;
  }
  const token = sim.tokens.hottest(sim.slot);
  // Two hops through one router: V2 tokens only.
  if (token && !market.v3PoolOf(token.address) && rng.chance(0.5))
    market.swap(wallet, [market.usd, market.weth, token.address], part(usd, rng.float(0.5, 1)));
  else market.sellForEth(wallet, market.usd, usd);
}

/** Launch tokens the wallet holds and can trade now. */
function heldTokens(sim: Sim, wallet: Address): SimToken[] {
  const out: SimToken[] = [];
  for (const address of sim.market.ledger.tokensHeldBy(wallet)) {
    const token = sim.tokens.get(address);
    if (token && sim.tokens.tradable(token, sim.slot)) out.push(token);
  }
  return out;
}

/** Fresh wallets: exchange withdrawals to new addresses in the last hours of the history (and
 * all along when live), each buying the token of the moment soon after. */
export function startFreshArrivals(sim: Sim, actors: Actors): void {
  const rng = sim.rng.fork("fresh");
  const arrive = () => {
    const wallet = joinRetail(sim, actors, "fresh");
    sim.after(rng.int(MINUTE, 30 * MINUTE), () => {
      const token = sim.tokens.hottest(sim.slot);
      const eth = part(spendable(sim, wallet), rng.float(0.1, 0.4));
      if (token) buy(sim, actors, wallet, token, eth);
    });
  };
  const window = Math.min(6 * HOUR, Math.floor(sim.backfillSlots / 4));
  for (let i = 0; i < freshCount(sim); i++) sim.at(sim.backfillSlots - 1 - rng.int(0, window - 1), arrive);
  const live = () => {
    arrive();
    sim.after(rng.exp(10 * MINUTE), live);
  };
  sim.at(sim.backfillSlots, live);
}
