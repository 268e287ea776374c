import { type Chain, HOUR_MS } from "./chain";
import { type Ids, KIND } from "./ids";
import { LAUNCHPADS, type Launchpad, pickSector, type Sector, tokenName } from "./names";
import { MIN_EVENTS_PER_TOKEN, type ResolvedOptions } from "./options";
import type { Cluster, Population } from "./population";
import { type Rng, rngFor, STREAM } from "./rng";

/** The story planted in a token; the flags are then detected from what the story produced. */
export type Scenario = "normal" | "rug" | "wash" | "sybil" | "concentrated" | "smart_exit";
/** What the last hour looks like: new buyers (pump), holders leaving (dump), or neither. */
export type Phase = "quiet" | "pump" | "dump";

export type TokenPlan = {
  index: number;
  address: string;
  pool: string;
  name: string;
  symbol: string;
  sector: Sector;
  launchpad: Launchpad;
  team: Cluster;
  createdBlock: number;
  /** User-level events this token produces, the launch included. */
  events: number;
  scenario: Scenario;
  phase: Phase;
  popularity: number;
  supply: bigint;
  initialWethEth: number;
  /** Shares of supply at launch: into the pool, burned, kept by the token contract (creator keeps the rest). */
  poolShare: number;
  burnShare: number;
  contractShare: number;
};

const MIN_AGE_MS = 10 * 60_000;
const UNIT = 10n ** 18n;

/** Scenario odds, each with the smallest token that can carry it. */
const SCENARIOS: { scenario: Exclude<Scenario, "normal">; p: number; minEvents: number; minAgeH: number; pad?: Launchpad }[] = [
  // Only MoonLaunch leaves the LP tokens with the creator; PumpPad burns them, so it cannot be rugged.
  { scenario: "rug", p: 0.16, minEvents: 8, minAgeH: 1, pad: "MoonLaunch" },
  { scenario: "wash", p: 0.06, minEvents: 16, minAgeH: 1 },
  { scenario: "sybil", p: 0.06, minEvents: 16, minAgeH: 0 },
  { scenario: "concentrated", p: 0.06, minEvents: 0, minAgeH: 0 },
  { scenario: "smart_exit", p: 0.07, minEvents: 14, minAgeH: 8 },
];

function ageMs(rng: Rng, spanMs: number): number {
  // Half log-uniform (many young tokens), half uniform (plenty of days-old ones).
  const u = rng.float();
  return rng.chance(0.5) ? MIN_AGE_MS * (spanMs / MIN_AGE_MS) ** u : MIN_AGE_MS + u * (spanMs - MIN_AGE_MS);
}

/** Splits `total` into integers proportional to weights (largest remainder), each at least `min`. */
function apportion(weights: number[], total: number, min: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const free = total - min * weights.length;
  const raw = weights.map((w) => (free * w) / sum);
  const out = raw.map((x) => min + Math.floor(x));
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = raw.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k++, left--) out[order[k % order.length][1]]++;
  return out;
}

function pickScenario(rng: Rng, launchpad: Launchpad, events: number, ageH: number): Scenario {
  let r = rng.float();
  for (const s of SCENARIOS) {
    if ((r -= s.p) < 0) {
      const fits = events >= s.minEvents && ageH >= s.minAgeH && (!s.pad || s.pad === launchpad);
      return fits ? s.scenario : "normal";
    }
  }
  return "normal";
}

function supplySplit(rng: Rng, launchpad: Launchpad, scenario: Scenario) {
  const contractShare = launchpad === "MoonLaunch" ? 0.03 : 0;
  const creatorKeeps = scenario === "concentrated" ? rng.between(0.25, 0.5) : rng.between(0.02, 0.1);
  const burnShare = launchpad === "PumpPad" && rng.chance(0.4) ? rng.between(0.02, 0.1) : 0;
  return { contractShare, burnShare, poolShare: 1 - contractShare - creatorKeeps - burnShare };
}

export function planTokens(o: ResolvedOptions, chain: Chain, pop: Population, ids: Ids): TokenPlan[] {
  const rng = rngFor(o.seed, STREAM.plans);
  const spanMs = chain.nowMs - chain.timeOf(chain.firstBlock + 1);
  const created = Array.from({ length: o.tokens }, () => chain.blockAt(chain.nowMs - ageMs(rng, spanMs))).sort((a, b) => a - b);
  const popularity = created.map(() => rng.lognormal(1, 1.1));
  const ageH = created.map((b) => (chain.nowMs - chain.timeOf(b)) / HOUR_MS);
  const events = apportion(
    created.map((_, i) => popularity[i] * (0.25 + Math.min(ageH[i], 72) / 72) ** 0.7),
    o.events,
    MIN_EVENTS_PER_TOKEN,
  );

  return created.map((createdBlock, index) => {
    const launchpad = rng.chance(0.6) ? LAUNCHPADS[0] : LAUNCHPADS[1];
    const sector = pickSector(rng, launchpad);
    const scenario = pickScenario(rng, launchpad, events[index], ageH[index]);
    const phase: Phase = ageH[index] < 2 ? "pump" : (["quiet", "quiet", "pump", "dump"] as const)[rng.int(0, 3)];
    const supplyUnits = launchpad === "PumpPad" ? 1_000_000_000n : 10n ** BigInt(rng.int(6, 11)) * BigInt(rng.int(1, 9));
    return {
      index,
      address: ids.address(KIND.token, index),
      pool: ids.address(KIND.pool, index),
      ...tokenName(rngFor(o.seed, STREAM.names, index), sector),
      sector,
      launchpad,
      // Serial launchers: a few teams launch many tokens.
      team: pop.teams[Math.floor(pop.teams.length * rng.float() ** 2)],
      createdBlock,
      events: events[index],
      scenario,
      phase,
      popularity: popularity[index],
      supply: supplyUnits * UNIT,
      initialWethEth: Math.min(2000, Math.max(0.2, rng.lognormal(4, 1.4))),
      ...supplySplit(rng, launchpad, scenario),
    };
  });
}
