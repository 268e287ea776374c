import type * as kinds from "@/lib/domain/alert-conditions";
import { PRICE_WINDOWS } from "@/lib/domain/alert-conditions";
import { NUMERIC_FILTERS, type TokenFilter } from "@/lib/domain/token-filter";
import type { AlertKind } from "@/lib/domain/vocab";
import type { AlertEvent, AlertNotification } from "./payload";

/**
 * Alerts in words, for people: their conditions and what fired them. The email (email.ts) and
 * the dashboard's alert list say the same through these.
 */

/** One formatter for every number: toLocaleString builds one per call, most of an email's rendering time. */
const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const number = (v: number) => (Number.isFinite(v) ? NUMBER.format(v) : `${v}`);

/** A USD amount; a price below a dollar keeps six significant digits (a token may trade at $0.00001234). */
export function usd(v: number): string {
  if (!Number.isFinite(v) || Math.abs(v) >= 1 || v === 0) return `$${number(v)}`;
  return `$${v.toLocaleString("en-US", { maximumSignificantDigits: 6 })}`;
}

/** A condition's or a match's number in its unit, told by the field's suffix. */
export function formatValue(field: string, v: number | string[]): string {
  if (Array.isArray(v)) return v.length ? v.join(", ") : "none";
  if (field.endsWith("_usd")) return usd(v);
  if (field.endsWith("_pct")) return `${v > 0 ? "+" : ""}${number(v)}%`;
  if (field.endsWith("_hours")) return `${number(v)} h`;
  return number(v);
}

const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;
const ACTION_WORDS = { buy: "buys", sell: "sells", receive: "receives", launch: "launches" } as const;
const EVENT_VERBS = { buy: "bought", sell: "sold", receive: "received", launch: "launched" } as const;
const atLeast = (min: number | undefined) => (min ? [`Worth at least ${usd(min)}`] : []);
const ofToken = (token: string | undefined) => (token ? `token ${short(token)}` : "any token");

function tokenFilterWords(c: TokenFilter): string[] {
  return Object.entries(c).map(([field, v]) => {
    if (field === "exclude_flags") return `Excluding risk flags: ${formatValue(field, v as string[])}`;
    const label = NUMERIC_FILTERS[field as keyof typeof NUMERIC_FILTERS]?.description ?? field;
    return `${label}: ${formatValue(field, v as number)}`;
  });
}

/** A price condition in one line: "price reaches $1.5 or above", "price moves up 20% within 1 h". */
export function priceWords(c: kinds.PriceConditions): string {
  const price = `Price of ${short(c.token_address)}`;
  if (c.crosses) return `${price} reaches ${usd(c.price_usd!)} or ${c.crosses === "above" ? "above" : "below"}`;
  const way = c.moves === "either" ? "up or down" : c.moves;
  return `${price} moves ${way} ${number(c.change_pct!)}% within ${PRICE_WINDOWS[c.window!].label}`;
}

/** An alert's conditions, one line each, as its kind reads them (no kind: a token filter). */
export function describeAlertConditions(kind: AlertKind | undefined, conditions: kinds.AlertConditions): string[] {
  if (kind === "wallet") {
    const c = conditions as kinds.WalletConditions;
    const actions = c.actions.map((a) => ACTION_WORDS[a]).join(", ");
    return [`Wallet ${short(c.wallet_address)} ${actions} (${ofToken(c.token_address)})`, ...atLeast(c.min_amount_usd)];
  }
  if (kind === "smart_money") {
    const c = conditions as kinds.SmartMoneyConditions;
    return [`A smart-money wallet buys ${ofToken(c.token_address)}`, ...atLeast(c.min_amount_usd)];
  }
  if (kind === "price") return [priceWords(conditions as kinds.PriceConditions)];
  return tokenFilterWords(conditions as TokenFilter);
}

/** What a notification announces, counted: "3 new matching tokens", "2 new events". */
export function headline(n: AlertNotification): string {
  if (n.events) return `${n.total_events} new event${n.total_events === 1 ? "" : "s"}`;
  if (n.alert.kind === "price") return "its price condition is met";
  return `${n.total_matches} new matching token${n.total_matches === 1 ? "" : "s"}`;
}

/** One event in words: "0x12ab…cdef bought PEPE for $1,234". */
export function describeEvent(e: AlertEvent, symbol: string): string {
  const value = e.type === "launch" || !e.amount_usd ? "" : ` for ${usd(e.amount_usd)}`;
  const from = e.from_address ? ` from ${short(e.from_address)}` : "";
  return `${short(e.wallet_address)} ${EVENT_VERBS[e.type]} ${symbol}${value}${from}`;
}
