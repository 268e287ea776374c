/** Numbers, times and addresses as people read them; shared by server and client components. */

const compactUsd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  notation: "compact",
  maximumSignificantDigits: 3,
});
const smallUsd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumSignificantDigits: 3 });
const compactNumber = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const wholeNumber = new Intl.NumberFormat("en-US");
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "short" });

/** $1.2M, $532, $0.0000322: compact above a dollar, three significant digits below. */
export function formatUsd(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  if (n !== 0 && Math.abs(n) < 1) return smallUsd.format(n);
  return compactUsd.format(n);
}

/** Signed USD for profit and loss: +$1.2K, −$300. */
export function formatSignedUsd(n: number): string {
  return n > 0 ? `+${formatUsd(n)}` : formatUsd(n).replace("-", "−");
}

export const formatCompact = (n: number) => compactNumber.format(n);
export const formatInteger = (n: number) => wholeNumber.format(n);

export function formatPct(n: number, digits = 1): string {
  return `${n.toFixed(digits)}%`;
}

/** A change in percent, signed: +12.3%, −4.1%, 0%; "—" where there is none (a token without a price then). */
export function formatChangePct(pct: number | null): string {
  if (pct === null || !Number.isFinite(pct)) return "—";
  const digits = Math.abs(pct) >= 100 ? 0 : 1;
  const text = `${Math.abs(pct).toFixed(digits)}%`;
  return Number(text.slice(0, -1)) === 0 ? "0%" : `${pct > 0 ? "+" : "−"}${text}`;
}

/** A token quantity: 1.23M, 532, 0.0042 (three significant digits below one). */
export function formatAmount(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return "—";
  if (n !== 0 && Math.abs(n) < 1) return n.toPrecision(3).replace(/\.?0+$/, "");
  return compactNumber.format(n);
}

export function formatAge(hours: number): string {
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} min`;
  if (hours < 48) return `${Math.round(hours)} h`;
  return `${Math.round(hours / 24)} d`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/** "5 min. ago", "in 2 hr.": the largest unit that fits. */
export function formatRelative(iso: string, now: number): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") return relative.format(Math.trunc(seconds / size), unit);
  }
  return iso;
}

export function formatDateTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** 0x1234…abcd */
export function shortAddress(a: string, chars = 4): string {
  return a.length <= 2 + chars * 2 ? a : `${a.slice(0, 2 + chars)}…${a.slice(-chars)}`;
}

/** snake_case vocabulary as words: smart_money → smart money. */
export const humanize = (s: string) => s.replaceAll("_", " ");
