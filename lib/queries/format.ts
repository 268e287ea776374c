/** Conversions from stored values to API values, shared by every read model. */

export const iso = (d: Date) => d.toISOString();

export const hoursSince = (d: Date, now: Date) => round((now.getTime() - d.getTime()) / 3_600_000, 2);

/**
 * `n` rounded to `digits` decimals. A number too large for the scaling keeps its value (it has
 * no decimals to round), and NaN or an infinity answers 0: JSON would turn them into null.
 */
export const round = (n: number, digits = 6) => {
  if (!Number.isFinite(n)) return 0;
  const f = 10 ** digits;
  const scaled = n * f;
  return Number.isFinite(scaled) ? Math.round(scaled) / f : n;
};

/**
 * A raw integer amount (decimal string, as numeric::text gives it) as a token quantity with
 * `decimals`: exact to a double's precision for any uint256 and any decimals from 0 to 77, and
 * always finite (anything that is not an integer reads as 0).
 */
export function toUnits(raw: string, decimals: number): number {
  const neg = raw.startsWith("-");
  const abs = neg ? raw.slice(1) : raw;
  if (!/^[0-9]+$/.test(abs)) return 0;
  const d = Math.max(0, Math.trunc(decimals) || 0);
  const digits = abs.padStart(d + 1, "0");
  const value = d === 0 ? Number(digits) : Number(`${digits.slice(0, -d)}.${digits.slice(-d)}`);
  return Number.isFinite(value) ? (neg ? -value : value) : 0;
}

/** share of a raw amount in a raw total, in percent, exact enough for display. */
export function percentOf(amount: string, total: string): number {
  if (BigInt(total) === 0n) return 0;
  return Number((BigInt(amount) * 10_000_000n) / BigInt(total)) / 100_000;
}
