import { HOUR_MS } from "./chain";
import { type Ids, KIND } from "./ids";
import { type Rng, rngFor, STREAM } from "./rng";

/**
 * Behaviour planted in each wallet. The persona decides how the simulation uses the wallet, and
 * the wallet is classified as its persona (the vocabulary of DESIGN.md).
 */
export const PERSONAS = ["smart_money", "sniper", "bot", "insider", "whale", "wash_trader", "fresh", "retail"] as const;
export type Persona = (typeof PERSONAS)[number];
const P = Object.fromEntries(PERSONAS.map((p, i) => [p, i])) as Record<Persona, number>;

/** Relative trading activity of the personas that trade in the open market. */
const MARKET_WEIGHT: Partial<Record<Persona, number>> = { retail: 1, bot: 25, whale: 2, smart_money: 8, sniper: 1.5 };
const EXCHANGE_FUNDERS = 12;
/** Fresh wallets appear during the last two days. */
const FRESH_WINDOW_MS = 48 * HOUR_MS;

/** Wallets funded by one address: a launch team (creator first), a sybil farm or a wash ring. */
export type Cluster = { id: number; kind: "team" | "sybil" | "wash"; members: number[] };

export class Population {
  readonly size: number;
  readonly addresses: string[];
  readonly persona: Uint8Array;
  /** Index into `clusters`, or -1. */
  readonly clusterOf: Int32Array;
  readonly birthMs: Float64Array;
  readonly clusters: Cluster[] = [];
  readonly teams: Cluster[] = [];
  readonly sybilFarms: Cluster[] = [];
  readonly washRings: Cluster[] = [];
  readonly snipers: number[] = [];
  readonly smartMoney: number[] = [];
  private readonly exchangeFunder: Uint8Array;
  private readonly market: Int32Array;
  private readonly marketCumWeight: Float64Array;
  /** Fresh wallets, ordered by birth, so "born before t" is a prefix. */
  private readonly fresh: number[] = [];
  private readonly ids: Ids;

  constructor(seed: number, ids: Ids, size: number, startMs: number, nowMs: number) {
    const rng = rngFor(seed, STREAM.population);
    this.ids = ids;
    this.size = size;
    this.addresses = Array.from({ length: size }, (_, i) => ids.address(KIND.wallet, i));
    this.persona = new Uint8Array(size).fill(P.retail);
    this.clusterOf = new Int32Array(size).fill(-1);
    this.birthMs = new Float64Array(size).fill(startMs);
    this.exchangeFunder = new Uint8Array(size);

    let next = 0;
    const take = (persona: Persona, n: number) => {
      const out: number[] = [];
      for (; out.length < n && next < size; next++) {
        this.persona[next] = P[persona];
        out.push(next);
      }
      return out;
    };
    const cluster = (kind: Cluster["kind"], members: number[], list: Cluster[]) => {
      if (!members.length) return;
      const c: Cluster = { id: this.clusters.length, kind, members };
      for (const m of members) this.clusterOf[m] = c.id;
      this.clusters.push(c);
      list.push(c);
    };

    for (let t = Math.max(1, Math.round(size * 0.02)); t > 0; t--) cluster("team", take("insider", rng.int(1, 4)), this.teams);
    for (let s = Math.max(1, Math.round(size * 0.003)); s > 0; s--) {
      const farm = take("sniper", rng.int(5, 12));
      this.snipers.push(...farm);
      cluster("sybil", farm, this.sybilFarms);
    }
    for (let w = Math.max(1, Math.round(size * 0.004)); w > 0; w--) cluster("wash", take("wash_trader", rng.int(2, 4)), this.washRings);
    const marketStart = next;
    take("bot", Math.round(size * 0.03));
    this.snipers.push(...take("sniper", Math.round(size * 0.04)));
    this.smartMoney.push(...take("smart_money", Math.round(size * 0.04)));
    take("whale", Math.round(size * 0.03));
    const freshStart = next;
    this.fresh.push(...take("fresh", Math.round(size * 0.15)));
    take("retail", size - next);

    const births = this.fresh.map(() => rng.between(nowMs - FRESH_WINDOW_MS, nowMs - 5 * 60_000)).sort((a, b) => a - b);
    this.fresh.forEach((w, i) => (this.birthMs[w] = births[i]));
    for (let i = 0; i < size; i++) this.exchangeFunder[i] = rng.int(0, EXCHANGE_FUNDERS - 1);

    // Market traders: everyone outside clusters and fresh wallets, weighted by persona activity.
    const market = [...range(marketStart, freshStart), ...range(freshStart + this.fresh.length, size)];
    this.market = Int32Array.from(market);
    this.marketCumWeight = new Float64Array(market.length);
    let sum = 0;
    market.forEach((w, i) => {
      sum += (MARKET_WEIGHT[PERSONAS[this.persona[w]]] ?? 1) * rng.lognormal(1, 0.7);
      this.marketCumWeight[i] = sum;
    });
  }

  personaOf(w: number): Persona {
    return PERSONAS[this.persona[w]];
  }

  funder(w: number): string {
    const c = this.clusterOf[w];
    return c >= 0 ? this.ids.address(KIND.funder, c) : this.ids.address(KIND.exchange, this.exchangeFunder[w]);
  }

  clusterId(w: number): string | null {
    const c = this.clusterOf[w];
    return c >= 0 ? `cluster-${c}` : null;
  }

  /** A market trader, active ones more often. */
  sampleTrader(rng: Rng): number {
    const x = rng.float() * this.marketCumWeight[this.marketCumWeight.length - 1];
    let lo = 0;
    let hi = this.marketCumWeight.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.marketCumWeight[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return this.market[lo];
  }

  /** A fresh wallet already born at `ms`, or -1 when none is. */
  sampleFresh(rng: Rng, ms: number): number {
    let lo = 0;
    let hi = this.fresh.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.birthMs[this.fresh[mid]] <= ms) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? -1 : this.fresh[rng.int(0, lo - 1)];
  }
}

function* range(from: number, to: number) {
  for (let i = from; i < to; i++) yield i;
}
