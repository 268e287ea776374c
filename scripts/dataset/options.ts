export type Counts = { tokens: number; wallets: number; events: number };

export const SIZES = {
  /** Quick tests. */
  tiny: { tokens: 30, wallets: 300, events: 2_000 },
  /** `npm start` and the integration tests. */
  small: { tokens: 300, wallets: 3_000, events: 30_000 },
  /** The API benchmark. */
  large: { tokens: 100_000, wallets: 200_000, events: 5_000_000 },
} as const satisfies Record<string, Counts>;
export type DatasetSize = keyof typeof SIZES;

export type DatasetOptions = Partial<Counts> & {
  size?: DatasetSize;
  seed?: number;
  /** The chain head's time; the same seed and `now` give the same rows. Default: the current second. */
  now?: Date;
  /** Days of chain history before `now`. */
  spanDays?: number;
};

export type ResolvedOptions = Counts & { seed: number; now: Date; spanDays: number };

/** Every token needs its launch and a few trades. */
export const MIN_EVENTS_PER_TOKEN = 5;

export function resolveOptions(o: DatasetOptions = {}): ResolvedOptions {
  const base = SIZES[o.size ?? "small"];
  const r: ResolvedOptions = {
    tokens: o.tokens ?? base.tokens,
    wallets: o.wallets ?? base.wallets,
    events: o.events ?? base.events,
    seed: o.seed ?? 1,
    now: new Date(Math.floor((o.now ?? new Date()).getTime() / 1000) * 1000),
    spanDays: o.spanDays ?? 7,
  };
  for (const k of ["tokens", "wallets", "events", "seed"] as const) {
    if (!Number.isSafeInteger(r[k]) || r[k] < 0) throw new Error(`${k} must be a non-negative integer`);
  }
  if (r.tokens < 1) throw new Error("tokens must be at least 1");
  if (r.wallets < 100) throw new Error("wallets must be at least 100");
  if (r.events < r.tokens * MIN_EVENTS_PER_TOKEN) {
    throw new Error(`events must be at least ${MIN_EVENTS_PER_TOKEN} per token (${r.tokens * MIN_EVENTS_PER_TOKEN})`);
  }
  if (!(r.spanDays >= 1 && r.spanDays <= 60)) throw new Error("spanDays must be within 1..60");
  return r;
}
