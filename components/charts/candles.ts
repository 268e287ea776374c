import { OHLCV_INTERVALS, type OhlcvInterval } from "@/lib/domain/vocab";
import { CHART_CANDLES } from "@/lib/queries/shared-views";

/**
 * The token page's candlestick chart without React: which candles it asks for, and the pure
 * scaling and formatting its axes and readout use (shared by the server page and the client chart).
 */

export type Candle = {
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume_usd: number;
  trades: number;
};

export const CHART_INTERVALS = Object.keys(OHLCV_INTERVALS) as OhlcvInterval[];
/** 15-minute candles: a day of them fits the chart, which is what a trader opens a token page for. */
export const DEFAULT_CHART_INTERVAL: OhlcvInterval = "15m";

/** The dashboard's JSON route of the chart (GET /v1/tokens/{address}/ohlcv's answer). */
export const ohlcvUrl = (address: string, interval: OhlcvInterval) =>
  `/api/tokens/${address}/ohlcv?interval=${interval}&limit=${CHART_CANDLES}`;

/** Share of the price range added above and below, so the highest and lowest wicks do not touch the edges. */
const PADDING = 0.08;

/**
 * The price axis's range: the lowest low to the highest high, padded, and never below zero (a
 * price cannot be negative, so the padding under a low near zero stops at zero). A flat series
 * gets a padding of its own size; a series of zeros gets [0, 1].
 */
export function priceDomain(candles: Pick<Candle, "low" | "high">[]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const c of candles) {
    lo = Math.min(lo, c.low);
    hi = Math.max(hi, c.high);
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  const pad = (hi - lo) * PADDING || Math.abs(hi) * PADDING || 1;
  return [Math.max(0, lo - pad), hi + pad];
}

/** The round step (1, 2 or 5 × 10ⁿ) nearest above `raw`. */
export function niceStep(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const r = raw / magnitude;
  return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * magnitude;
}

/** About `count` round values inside [lo, hi], ascending, and the step between them. */
export function priceTicks(lo: number, hi: number, count: number): { ticks: number[]; step: number } {
  const step = niceStep((hi - lo) / Math.max(1, count));
  const ticks: number[] = [];
  // toPrecision drops the float noise of repeated steps (0.30000000000000004 → 0.3).
  for (let i = Math.ceil(lo / step); i * step <= hi; i++) ticks.push(Number((i * step).toPrecision(12)));
  return { ticks, step };
}

const SUBSCRIPT = "₀₁₂₃₄₅₆₇₈₉";
/** Below this a price is written with its leading zeros counted (0.0₈1234), as traders read sub-cent tokens. */
const TINY = 1e-4;
const usdFormats = new Map<string, Intl.NumberFormat>();
function usdFormat(digits: number, compact: boolean) {
  const key = `${digits}${compact}`;
  let f = usdFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: "USD",
      maximumSignificantDigits: digits,
      notation: compact ? "compact" : "standard",
    });
    usdFormats.set(key, f);
  }
  return f;
}

/**
 * A USD price, readable at any size: $1.23M, $1,234.5, $0.002621, and for tiny prices the count of
 * zeros after the point as a subscript ($0.0₈1234 is $0.000000001234). With `step` (an axis's tick
 * step) it shows as many digits as tell neighbouring ticks apart; else five significant digits.
 */
export function formatPrice(v: number, step?: number): string {
  if (!Number.isFinite(v)) return "—";
  if (v === 0) return "$0";
  const exponent = Math.floor(Math.log10(Math.abs(v)));
  const digits = step ? Math.min(8, Math.max(2, exponent - Math.floor(Math.log10(step)) + 1)) : 5;
  if (Math.abs(v) >= 1e6) return usdFormat(Math.min(digits, 4), true).format(v);
  if (Math.abs(v) >= TINY) return usdFormat(digits, false).format(v);
  // Rounded to `digits` significant digits; a round-up to the next power of ten moves the exponent.
  let mantissa = Math.round(Math.abs(v) / 10 ** (exponent - digits + 1));
  let zeros = -exponent - 1;
  if (mantissa >= 10 ** digits) {
    mantissa /= 10;
    zeros -= 1;
  }
  const significant = String(mantissa).replace(/0+$/, "") || "0";
  const count = [...String(zeros)].map((d) => SUBSCRIPT[Number(d)]).join("");
  return `${v < 0 ? "-" : ""}$0.0${count}${significant}`;
}

/** A candle's start on the time axis: the clock time, or the date for daily candles and at midnight UTC. */
export function formatAxisTime(iso: string, interval: OhlcvInterval): string {
  const midnight = iso.slice(11, 16) === "00:00";
  return interval === "1d" || (midnight && OHLCV_INTERVALS[interval] >= OHLCV_INTERVALS["1h"])
    ? iso.slice(5, 10)
    : iso.slice(11, 16);
}

/** Linear map of [d0, d1] onto [r0, r1] (r0 > r1 for a y axis, where up is smaller). */
export const scale = (d0: number, d1: number, r0: number, r1: number) => (v: number) =>
  r0 + ((v - d0) / (d1 - d0 || 1)) * (r1 - r0);

/** The candle under x: slots of width `slot` from `left`, clamped to the candles there are. */
export function candleIndexAt(x: number, left: number, slot: number, count: number): number {
  return Math.min(count - 1, Math.max(0, Math.floor((x - left) / slot)));
}

/** Every k-th candle gets a time label, so labels stand at least `minGap` apart. */
export function labelEvery(slot: number, minGap: number): number {
  return Math.max(1, Math.ceil(minGap / slot));
}
