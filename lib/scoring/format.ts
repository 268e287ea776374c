/**
 * How the scoring engine writes numbers in words: the summaries and the evidence labels use
 * these, so a figure reads the same wherever it appears.
 */

const trim = (s: string) => (s.includes(".") ? s.replace(/\.?0+$/, "") : s);
const sig3 = (v: number) => trim(v.toPrecision(3));

/** Three significant figures with k/M/B: $45.7k. */
export function formatUsd(v: number): string {
  const a = Math.abs(v);
  const sign = v < 0 ? "-" : "";
  if (a >= 1e9) return `${sign}$${sig3(a / 1e9)}B`;
  if (a >= 1e6) return `${sign}$${sig3(a / 1e6)}M`;
  if (a >= 1e3) return `${sign}$${sig3(a / 1e3)}k`;
  return `${sign}$${a >= 1 ? String(Math.round(a)) : sig3(a)}`;
}

/** A percent value (12.5 → "12.5%"): whole numbers from 10 up, one decimal below. */
export const formatPct = (pct: number): string => `${Math.abs(pct) >= 10 ? Math.round(pct) : trim(pct.toFixed(1))}%`;

/** A fraction (0.41 → "41%"). */
export const formatShare = (fraction: number): string => formatPct(fraction * 100);

/** A fraction to a tenth of a percent (0.181 → "18.1%"), for values read against a threshold. */
export const formatShareExact = (fraction: number): string => `${trim((fraction * 100).toFixed(1))}%`;

/** A whole count with thousands separators. */
export const formatCount = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** An index 0..1 to three decimals (0.034). */
export const formatIndex = (v: number): string => v.toFixed(3);

export const formatDate = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().slice(0, 10);
