/**
 * Token launches and their planted fates. Each launch is planned in full up front (its hype cycle
 * and the times of everything that will happen to it), so the dumps that smart money and insiders
 * run ahead of are known, and every event of a backfilled launch fits in the backfilled history.
 */
import type { Address } from "viem";
import { SECTORS, type Sector } from "@/lib/domain/vocab";
import type { LaunchpadInfo } from "../../deploy";
import { type Actors, payOut, spendable } from "../actors";
import type { PoolSeed } from "../market";
import type { Rng } from "../random";
import { ether, HOUR, MINUTE, type Moment, part, type Sim } from "../sim";
import { type SimToken, tokenName } from "../tokens";
import { scheduleAirdrop } from "./airdrop";
import { type Bundle, bundleBuys, fundBundle, insiderTrades, snipe } from "./launch-crew";
import {
  SLOW_RUG_STEPS,
  scheduleFeeClaims,
  scheduleLpBurn,
  scheduleMigration,
  scheduleRugPull,
  scheduleSlowRug,
} from "./liquidity";
import { scheduleMarketMaker } from "./market-maker";
import { smartMoneyPerLaunch, startSmartMoney } from "./smart-money";
import { scheduleWashRing } from "./wash";

interface Fate {
  rug?: boolean;
  slowRug?: boolean;
  migration?: boolean;
  wash?: boolean;
  sybil?: boolean;
  insiders?: boolean;
  smartMoney?: boolean;
  marketMaker?: boolean;
  airdrop?: boolean;
  /** V3 only: the position stays in the locker for good; the creator claims its fees. */
  locked?: boolean;
  /** V2 only: the creator burns its LP shares (to the dead address) soon after the launch. */
  lpBurn?: boolean;
}

/** Fates by launch index, cycling. The first eight cover every planted scenario. */
const FATES: Fate[] = [
  { rug: true, insiders: true, smartMoney: true },
  { slowRug: true, smartMoney: true },
  { wash: true },
  { sybil: true },
  { migration: true },
  { marketMaker: true },
  { airdrop: true },
  { smartMoney: true, lpBurn: true },
  { sybil: true, rug: true },
  {},
  { rug: true, smartMoney: true },
  { wash: true },
  { lpBurn: true },
  { marketMaker: true, smartMoney: true },
  { slowRug: true, insiders: true },
  {},
];

/** Fates of V3 launches (a locked position cannot be pulled; an LP migration or an airdrop of the
 * creator's allocation has no V3 counterpart here: the launchpad puts the whole supply in the pool). */
const V3_FATES: Fate[] = [
  { rug: true, insiders: true, smartMoney: true },
  { locked: true },
  { slowRug: true, smartMoney: true },
  { wash: true, locked: true },
  { sybil: true },
  { marketMaker: true, locked: true },
  { smartMoney: true, locked: true },
  { sybil: true, rug: true },
  {},
];

/** Launches while live come about every 15 minutes and plan their fates over two days. */
const LIVE_LAUNCH_GAP = 15 * MINUTE;
const LIVE_HORIZON = 48 * HOUR;

interface Plan {
  index: number;
  /** Through the V3 launchpad (a single-sided position in its locker). */
  v3: boolean;
  fate: Fate;
  launchSlot: number;
  /** Slots after the launch that its planted events are fitted into. */
  horizon: number;
  params: PoolSeed;
  interest: number;
  peakSlot: number;
  halfLife: number;
  /** When the token dumps: what smart money and insiders get out ahead of. */
  dumpSlot: number;
  rugSlot?: number;
  slowRug?: { start: number; stepGap: number };
  migrationSlot?: number;
  wash?: { start: number; end: number };
  marketMaker?: { start: number; end: number };
  airdropSlot?: number;
}

export function scheduleLaunches(sim: Sim, actors: Actors): void {
  const rng = sim.rng.fork("launches");
  const count = sim.sizes.tokens;
  // Launch times over 3%..78% of the history, fates in shuffled order.
  const order = rng.shuffle([...Array(count).keys()]);
  const plans = order.map((at, i) => {
    const launchSlot = sim.backfillAt(0.03 + (0.75 * (at + rng.float(0.1, 0.9))) / count);
    return plan(sim, i, launchSlot, sim.backfillSlots - launchSlot);
  });
  const withSmartMoney = plans.filter((p) => p.fate.smartMoney).length;
  const smartMoneyWallets = smartMoneyPerLaunch(actors.smartMoney.length, withSmartMoney);
  for (const p of plans) schedule(sim, actors, p, smartMoneyWallets);
  let next = count;
  const live = () => {
    const launchSlot = sim.slot + rng.int(5 * MINUTE, 20 * MINUTE);
    schedule(sim, actors, plan(sim, next++, launchSlot, LIVE_HORIZON), smartMoneyWallets);
    sim.after(rng.exp(LIVE_LAUNCH_GAP), live);
  };
  sim.at(sim.backfillSlots, live);
}

function plan(sim: Sim, index: number, launchSlot: number, horizon: number): Plan {
  const rng = sim.rng.fork(`plan/${index}`);
  // Drawn from its own stream, so V2 launches plan the same whatever the V3 share.
  const v3 = sim.market.deployment.v3 !== undefined && sim.rng.fork(`protocol/${index}`).chance(sim.sizes.v3Share);
  const fate = v3 ? V3_FATES[index % V3_FATES.length] : FATES[index % FATES.length];
  /** A time after the launch: a random fraction of the horizon, capped. */
  const after = (lo: number, hi: number, cap: number) =>
    launchSlot + Math.round(Math.min(horizon * rng.float(lo, hi), cap));
  const supply = BigInt(rng.pick([1e8, 1e9, 1e9, 1e10])) * 10n ** 18n;
  const peakSlot = after(0.12, 0.25, 10 * HOUR);
  const p: Plan = {
    index,
    v3,
    fate,
    launchSlot,
    horizon,
    params: {
      supply,
      liquiditySupply: v3 ? supply : part(supply, fate.airdrop ? rng.float(0.6, 0.7) : rng.float(0.7, 0.9)),
      ethIn: ether(Math.min(Math.max(rng.logNormal(4, 0.5), 1.5), 15)),
    },
    interest: rng.logNormal(1, 0.6) * (fate.smartMoney ? 1.5 : 1),
    peakSlot,
    halfLife: Math.max(30 * MINUTE, Math.round(Math.min(horizon * rng.float(0.1, 0.2), 6 * HOUR))),
    dumpSlot: peakSlot,
  };
  if (fate.rug) p.rugSlot = p.dumpSlot = Math.max(after(0.35, 0.6, 30 * HOUR), peakSlot + 30 * MINUTE);
  if (fate.slowRug) {
    const start = after(0.2, 0.3, 12 * HOUR);
    p.slowRug = { start, stepGap: Math.round(Math.min(horizon * 0.5, 14 * HOUR) / SLOW_RUG_STEPS) };
    p.dumpSlot = start;
  }
  if (fate.migration) p.migrationSlot = after(0.25, 0.6, 24 * HOUR);
  if (fate.wash) {
    const start = after(0.03, 0.1, 3 * HOUR);
    p.wash = { start, end: start + Math.round(Math.min(horizon * rng.float(0.3, 0.5), 12 * HOUR)) };
  }
  if (fate.marketMaker) {
    const start = after(0.02, 0.08, 2 * HOUR);
    p.marketMaker = { start, end: start + Math.round(Math.min(horizon * 0.7, 36 * HOUR)) };
  }
  if (fate.airdrop) p.airdropSlot = after(0.1, 0.3, 8 * HOUR);
  return p;
}

/** Preparations 10-45 minutes ahead (the creator's ether, insiders, the bundle), then the launch.
 * `smartMoneyWallets`: the least number of smart-money wallets a launch with smart money takes. */
function schedule(sim: Sim, actors: Actors, p: Plan, smartMoneyWallets: number): void {
  const rng = sim.rng.fork(`launch/${p.index}`);
  const prepSlot = Math.max(sim.slot + 1, p.launchSlot - rng.int(10 * MINUTE, 45 * MINUTE));
  sim.at(prepSlot, () => {
    const insiderEth = p.fate.insiders ? Array.from({ length: rng.int(2, 3) }, () => ether(rng.float(0.4, 1.2))) : [];
    const creator = creatorFor(
      sim,
      actors,
      p,
      insiderEth.reduce((a, b) => a + b, p.params.ethIn + ether(0.5)),
      rng,
    );
    const bundle = p.fate.sybil ? fundBundle(sim, p.params, rng) : undefined;
    // The creator pays insiders a block later: ether it just received is not spendable yet.
    sim.after(1, () => {
      const insiders = insiderEth.map((eth) => {
        const wallet = sim.wallets.create("insider");
        sim.market.sendEth(creator, wallet, eth);
        return wallet;
      });
      const funded = sim.now;
      const crew = { insiders, funded, bundle, smartMoneyWallets };
      sim.at(Math.max(p.launchSlot, sim.slot + 1), () => launch(sim, actors, p, creator, crew, rng));
    });
  });
}

/** The launchpad of a launch and the sector of its token. V2 launches go to either V2 launchpad
 * (the other one if an outside client blocked the first, Market.canLaunchOn); PumpPad is where memes
 * launch; the others take anything. */
function pickLaunchpad(sim: Sim, p: Plan, rng: Rng): { launchpad: LaunchpadInfo; sector: Sector } {
  const { market } = sim;
  if (p.v3) return { launchpad: market.deployment.v3!.launchpad, sector: rng.pick(SECTORS) };
  const [first, second] = market.deployment.launchpads;
  let launchpad = rng.chance(0.55) ? first : second;
  if (!market.canLaunchOn(launchpad.address)) launchpad = launchpad === first ? second : first;
  if (!market.canLaunchOn(launchpad.address))
    throw new Error(
      "simulator: outside transactions created the pairs of every launchpad's next token; no launch can succeed",
    );
  const sector: Sector = launchpad === first && rng.chance(0.6) ? "meme" : rng.pick(SECTORS);
  return { launchpad, sector };
}

/** A new creator, or (serial launchers, more often ruggers) one from before that is not busy
 * with another launch, with enough ether. */
function creatorFor(sim: Sim, actors: Actors, p: Plan, needs: bigint, rng: Rng): Address {
  const idle = actors.creators.filter((c) => !actors.launching.has(c));
  const topUp = needs + ether(rng.float(0.5, 3));
  let creator: Address;
  if (idle.length > 0 && rng.chance(p.fate.rug || p.fate.slowRug ? 0.4 : 0.15)) {
    creator = rng.pick(idle);
    if (spendable(sim, creator) < needs) payOut(sim, actors, creator, topUp);
  } else {
    // Half the creators withdraw from the exchange, half bring ether from elsewhere.
    const fromCex = rng.chance(0.5);
    creator = sim.wallets.create("creator", fromCex ? 0n : topUp);
    if (fromCex) payOut(sim, actors, creator, topUp);
    actors.creators.push(creator);
  }
  actors.launching.add(creator);
  return creator;
}

/** Who takes part in a launch besides the creator: insiders it paid (when), the bundle, and the least
 * number of smart-money wallets (for a launch with smart money). */
interface Crew {
  insiders: Address[];
  funded: Moment;
  bundle: Bundle | undefined;
  smartMoneyWallets: number;
}

function launch(sim: Sim, actors: Actors, p: Plan, creator: Address, crew: Crew, rng: Rng): void {
  const { insiders, funded, bundle } = crew;
  const { market } = sim;
  const { launchpad, sector } = pickLaunchpad(sim, p, rng);
  const { name, symbol } = tokenName(rng, sector, sim.tokens.symbols);
  const launched = p.v3
    ? market.launchV3(creator, {
        name,
        symbol,
        supply: p.params.supply,
        ethDepth: p.params.ethIn,
        withdrawable: !p.fate.locked,
      })
    : market.launch(creator, { launchpad: launchpad.address, name, symbol, ...p.params });
  const pair = { address: launched.address, token0: launched.token0, token1: launched.token1 };
  const v3 = market.v3PoolOf(launched.token);
  actors.launching.delete(creator);
  const truth = sim.truth.addToken({
    address: launched.token,
    pair: pair.address,
    protocol: launchpad.protocol,
    name,
    symbol,
    sector,
    launchpad: launchpad.name,
    launchpadAddress: launchpad.address,
    creator,
    launchBlock: sim.now.block,
    launchTimestamp: sim.now.timestamp,
    totalSupply: p.params.supply.toString(),
    liquiditySupply: (v3 ? market.ledger.balanceOf(launched.token, pair.address) : p.params.liquiditySupply).toString(),
    initialLiquidityWeth: (v3 ? 0n : p.params.ethIn).toString(),
    ...(v3 && {
      positionId: v3.positionId.toString(),
      locker: market.deployment.v3!.locker,
      withdrawable: !p.fate.locked,
    }),
  });
  const token: SimToken = {
    address: launched.token,
    pair,
    name,
    symbol,
    sector,
    creator,
    launchSlot: sim.slot,
    interest: p.interest,
    peakSlot: p.peakSlot,
    halfLifeSlots: p.halfLife,
    rugged: false,
    frozenUntil: 0,
    whaleExits: [],
    truth,
  };
  sim.tokens.add(token);

  if (bundle) bundleBuys(sim, actors, token, bundle, Math.min(p.horizon / 2, 12 * HOUR), rng.fork("bundle"));
  if (rng.chance(0.75)) snipe(sim, actors, token, rng.fork("snipers"));
  if (insiders.length > 0) insiderTrades(sim, actors, token, insiders, funded, p.dumpSlot, rng.fork("insiders"));
  if (p.fate.smartMoney) {
    const smartMoney = { dumpSlot: p.dumpSlot, minWallets: crew.smartMoneyWallets };
    startSmartMoney(sim, actors, token, smartMoney, rng.fork("smart-money"));
  }
  if (p.rugSlot) scheduleRugPull(sim, token, p.rugSlot, rng.fork("rug"));
  if (p.slowRug) scheduleSlowRug(sim, token, p.slowRug.start, p.slowRug.stepGap, rng.fork("slow-rug"));
  if (p.migrationSlot) scheduleMigration(sim, token, p.migrationSlot, rng.fork("migration"));
  if (p.wash) scheduleWashRing(sim, token, p.wash.start, p.wash.end, rng.fork("wash"));
  if (p.marketMaker)
    scheduleMarketMaker(sim, actors, token, p.marketMaker.start, p.marketMaker.end, rng.fork("market-maker"));
  if (p.airdropSlot) scheduleAirdrop(sim, actors, token, p.airdropSlot, rng.fork("airdrop"));
  if (p.fate.locked) scheduleFeeClaims(sim, token, p.launchSlot + p.horizon, rng.fork("fee-claims"));
  if (p.fate.lpBurn) scheduleLpBurn(sim, token, rng.fork("lp-burn"));
  if (!p.rugSlot && !p.slowRug) {
    // An honest creator takes some profit once, after the hype.
    sim.tradeAt(token, p.peakSlot + rng.int(0, 3 * HOUR), () => {
      const held = market.ledger.balanceOf(token.address, creator);
      if (held > 0n) market.sellForEth(creator, token.address, part(held, rng.float(0.1, 0.25)));
    });
  }
}
