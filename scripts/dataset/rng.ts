/** Seeded randomness: every value of the dataset comes from here, never from Math.random. */

/** murmur3's 32-bit finalizer: a bijection on uint32 with good avalanche. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Folds a list of integers into one uint32 (order-sensitive). */
export function hashInts(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    h = mix32(h ^ mix32((x >>> 0) ^ Math.floor(x / 0x100000000)));
    h = (h + 0x6a09e667) >>> 0;
  }
  return h;
}

/** sfc32: small, fast, and good enough for simulation; one instance per independent stream. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = mix32(seed ^ 0xdeadbeef);
    this.b = mix32(seed ^ 0x41c64e6d);
    this.c = mix32(seed ^ 0x12345679);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 0x100000000;
  }

  between(lo: number, hi: number): number {
    return lo + (hi - lo) * this.float();
  }

  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.float() * xs.length)];
  }

  /** Index drawn with probability proportional to weights[i]. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  normal(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  /** Heavy-tailed positive values: sizes, liquidity, activity. */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  exponential(mean: number): number {
    return -mean * Math.log(1 - this.float());
  }
}

/** An independent stream for one purpose (and one item), so streams never shift each other. */
export const rngFor = (seed: number, ...keys: number[]) => new Rng(hashInts(seed, ...keys));

/** Stream purposes, one per consumer of randomness. */
export const STREAM = {
  chain: 1,
  population: 2,
  plans: 3,
  token: 4,
  names: 5,
} as const;
