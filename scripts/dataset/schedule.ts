import { type Chain, HOUR_MS } from "./chain";
import type { TokenPlan } from "./plans";
import type { Population } from "./population";
import type { Rng } from "./rng";

/**
 * What happens in one token's life after its launch, one user-level event per action. Planted
 * actions carry their actor; open-market ones ("trade", "transfer", "lp_*") pick theirs when
 * they run, from the state the market is in by then.
 */
export type Action =
  | { kind: "buy"; ms: number; wallet: number; usd?: number; poolShare?: number }
  | { kind: "exit"; ms: number; wallet: number; share: number }
  | { kind: "wash_buy"; ms: number; wallet: number; usd: number }
  | { kind: "wash_sell"; ms: number; wallet: number }
  | { kind: "burn"; ms: number }
  | { kind: "rug"; ms: number; share: number }
  | { kind: "trade" | "transfer" | "lp_add" | "lp_remove"; ms: number };

/** Blocks after launch in which buys count as the launch window (snipes, sybil farms). */
export const LAUNCH_WINDOW_BLOCKS = 20;

export function scheduleActions(plan: TokenPlan, chain: Chain, pop: Population, rng: Rng): Action[] {
  const t0 = chain.timeOf(plan.createdBlock);
  const now = chain.nowMs;
  const life = now - t0;
  const at = (blocksAfterLaunch: number) => chain.timeOf(Math.min(chain.lastBlock, plan.createdBlock + blocksAfterLaunch));
  const clampMs = (ms: number) => Math.min(now, Math.max(t0, ms));
  const actions: Action[] = [];
  // Keep room for a few open-market trades whatever was planted.
  let budget = plan.events - 1 - 3;
  const plant = (...xs: Action[]) => {
    if (xs.length > budget) return false;
    actions.push(...xs);
    budget -= xs.length;
    return true;
  };

  switch (plan.scenario) {
    case "sybil": {
      const farm = rng.pick(pop.sybilFarms).members;
      const total = rng.between(0.3, 0.45);
      const each = 1 - (1 - total) ** (1 / farm.length);
      for (const wallet of farm) plant({ kind: "buy", ms: at(rng.int(0, 1)), wallet, poolShare: each });
      break;
    }
    case "wash": {
      const ring = rng.pick(pop.washRings).members;
      const rounds = Math.max(3, Math.floor((budget * rng.between(0.35, 0.5)) / 2));
      for (let r = 0; r < rounds; r++) {
        const wallet = ring[r % ring.length];
        const ms = clampMs(t0 + 60_000 + rng.float() * (life - 90_000));
        plant({ kind: "wash_buy", ms, wallet, usd: rng.lognormal(1500, 0.4) }, { kind: "wash_sell", ms: clampMs(ms + rng.int(1, 8) * 2000), wallet });
      }
      break;
    }
    case "smart_exit": {
      const exitWindow = Math.min(20 * HOUR_MS, 0.3 * life);
      for (let k = rng.int(2, 4); k > 0; k--) {
        const wallet = rng.pick(pop.smartMoney);
        plant(
          { kind: "buy", ms: t0 + life * rng.between(0.02, 0.15), wallet, usd: rng.lognormal(3000, 0.5) },
          { kind: "exit", ms: now - rng.float() * exitWindow, wallet, share: rng.between(0.6, 1) },
        );
      }
      break;
    }
    case "rug":
      plant({ kind: "rug", ms: t0 + life * rng.between(0.35, 0.9), share: rng.between(0.9, 0.99) });
      break;
  }
  if (plan.burnShare > 0) plant({ kind: "burn", ms: t0 });
  for (let k = rng.int(0, 2) + (plan.popularity > 1.5 ? rng.int(1, 3) : 0); k > 0; k--) {
    plant({ kind: "buy", ms: at(rng.int(0, 2)), wallet: rng.pick(pop.snipers), poolShare: rng.between(0.005, 0.03) });
  }
  for (const wallet of plan.team.members.slice(1)) {
    if (rng.chance(0.6)) plant({ kind: "buy", ms: at(rng.int(0, 3)), wallet, poolShare: rng.between(0.01, 0.04) });
  }

  // The open market: an early burst, a steady trickle, and the last hour shaped by the phase.
  const recentWeight = plan.phase === "quiet" ? 0.1 : 0.3;
  for (let n = budget + 3; n > 0; n--) {
    const r = rng.float();
    const ms =
      r < 0.3
        ? t0 + rng.exponential(Math.min(life, 4 * HOUR_MS) * 0.25)
        : r < 0.3 + recentWeight
          ? now - rng.float() * Math.min(life, HOUR_MS)
          : t0 + rng.float() * life;
    const k = rng.float();
    const kind = k < 0.08 ? "transfer" : k < 0.092 ? "lp_add" : k < 0.1 ? "lp_remove" : "trade";
    actions.push({ kind, ms: clampMs(ms) });
  }
  return actions.sort((a, b) => a.ms - b.ms);
}
