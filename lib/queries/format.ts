/** Conversions from stored values to API values, shared by every read model. */

export const iso = (d: Date) => d.toISOString();

export const hoursSince = (d: Date, now: Date) => round((now.getTime() - d.getTime()) / 3_600_000, 2);

export const round = (n: number, digits = 6) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** A raw uint256 (decimal string) as a token quantity with `decimals`. */
export function toUnits(raw: string, decimals: number): number {
  if (decimals === 0) return Number(raw);
  const neg = raw.startsWith("-");
  const digits = (neg ? raw.slice(1) : raw).padStart(decimals + 1, "0");
  const value = Number(`${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`);
  return neg ? -value : value;
}

/** share of a raw amount in a raw total, in percent, exact enough for display. */
export function percentOf(amount: string, total: string): number {
  if (BigInt(total) === 0n) return 0;
  return Number((BigInt(amount) * 10_000_000n) / BigInt(total)) / 100_000;
}
