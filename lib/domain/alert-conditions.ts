import { explainMatch, type FilterableToken, type TokenFilter } from "./token-filter";

/**
 * The conditions of each alert kind but the token filter (token-filter.ts), declared once: the
 * API's body schemas (lib/api/schemas/alert-conditions.ts), the builder, the worker
 * (worker/alerts) and the builder's preview (lib/queries/alert-preview.ts) read them from here.
 */

/** What a watched wallet does: a swap's side, a transfer it receives, a token it creates. */
export const WALLET_ACTIONS = ["buy", "sell", "receive", "launch"] as const;
export type WalletAction = (typeof WALLET_ACTIONS)[number];

export type WalletConditions = {
  wallet_address: string;
  actions: WalletAction[];
  /** Only this token; any token when absent. */
  token_address?: string;
  /** Swaps and receipts worth at least this much (launches have no value). */
  min_amount_usd?: number;
};

/** A buy by a wallet classified smart_money (lib/scoring), of one token or of any. */
export type SmartMoneyConditions = { token_address?: string; min_amount_usd?: number };

/** The price change windows of token_metrics (GET /v1/tokens's price_change_*_pct) an alert watches. */
export const PRICE_WINDOWS = {
  "5m": { column: "priceChange5mPct", ms: 5 * 60_000, label: "5 min" },
  "1h": { column: "priceChange1hPct", ms: 3_600_000, label: "1 h" },
  "24h": { column: "priceChange24hPct", ms: 86_400_000, label: "24 h" },
} as const;
export type PriceWindow = keyof typeof PRICE_WINDOWS;
export const PRICE_WINDOW_NAMES = Object.keys(PRICE_WINDOWS) as [PriceWindow, ...PriceWindow[]];

export const PRICE_SIDES = ["above", "below"] as const;
export const PRICE_MOVES = ["up", "down", "either"] as const;
export type PriceSide = (typeof PRICE_SIDES)[number];
export type PriceMove = (typeof PRICE_MOVES)[number];

/**
 * One token's price: at or beyond a level (`crosses` with `price_usd`), or changed by at least
 * `change_pct` percent over a window (`moves` with `change_pct` and `window`). Exactly one of
 * the two forms (priceConditionsConflict).
 */
export type PriceConditions = {
  token_address: string;
  crosses?: PriceSide;
  price_usd?: number;
  moves?: PriceMove;
  change_pct?: number;
  window?: PriceWindow;
};

/** An alert's kind with the conditions it takes; no kind is a token filter (the spec's alerts). */
export type AlertDefinition =
  | { kind?: "token"; conditions: TokenFilter }
  | { kind: "wallet"; conditions: WalletConditions }
  | { kind: "price"; conditions: PriceConditions }
  | { kind: "smart_money"; conditions: SmartMoneyConditions };
export type AlertConditions = AlertDefinition["conditions"];

/**
 * A token or price alert fires at most once per this period; what newly matches meanwhile waits
 * for the next firing (worker/alerts/fire.ts; the builder's preview replays it).
 */
export const ALERT_COOLDOWN_MS = 15 * 60_000;

/** The kinds that fire per on-chain event (one notification per block batch); the others on a token's state. */
export const EVENT_KINDS = ["wallet", "smart_money"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
export const isEventKind = (kind: string): kind is EventKind => (EVENT_KINDS as readonly string[]).includes(kind);

/**
 * What an event alert reads of an on-chain event: a swap (its trader in `wallet`), a transfer
 * (`wallet` sends, `to` receives) or a token's launch (its creator in `wallet`), and whether a
 * swap's trader is classified smart_money now.
 */
export type ChainEvent = {
  type: "swap" | "transfer" | "launch";
  direction: string | null;
  wallet: string;
  to: string | null;
  token: string;
  amountUsd: number;
  smartMoney: boolean;
};

/** The wallet an event is an action of, for wallet alerts, and which action; null for none. */
export function walletActionOf(e: ChainEvent): { wallet: string; action: WalletAction } | null {
  if (e.type === "swap" && (e.direction === "buy" || e.direction === "sell"))
    return { wallet: e.wallet, action: e.direction };
  if (e.type === "transfer" && e.to) return { wallet: e.to, action: "receive" };
  if (e.type === "launch") return { wallet: e.wallet, action: "launch" };
  return null;
}

/**
 * Whether an event fires an alert of an event kind: a wallet alert on its wallet's watched
 * actions, a smart-money alert on a buy by a smart_money wallet; either only for its token when
 * it names one, and only from `min_amount_usd` on (a launch has no value: the minimum is no bound on it).
 */
export function eventFires(
  kind: EventKind,
  conditions: WalletConditions | SmartMoneyConditions,
  e: ChainEvent,
): boolean {
  if (conditions.token_address !== undefined && conditions.token_address !== e.token) return false;
  if (e.type !== "launch" && e.amountUsd < (conditions.min_amount_usd ?? 0)) return false;
  if (kind === "smart_money") return e.type === "swap" && e.direction === "buy" && e.smartMoney;
  const c = conditions as WalletConditions;
  const act = walletActionOf(e);
  return act !== null && act.wallet === c.wallet_address && c.actions.includes(act.action);
}

/** The rule across a price alert's fields that no single field states; the API reports it on `param`. */
type Conflict = { param: string; message: string } | null;

export function priceConditionsConflict(c: Omit<PriceConditions, "token_address">): Conflict {
  const level = c.crosses !== undefined || c.price_usd !== undefined;
  const move = c.moves !== undefined || c.change_pct !== undefined || c.window !== undefined;
  const either = "crosses with price_usd, or moves with change_pct and window";
  if (level && move) return { param: "moves", message: `takes one form: ${either}, not both` };
  if (!level && !move) return { param: "crosses", message: `is required: ${either}` };
  const missing = level
    ? (["crosses", "price_usd"] as const).find((f) => c[f] === undefined)
    : (["moves", "change_pct", "window"] as const).find((f) => c[f] === undefined);
  return missing ? { param: missing, message: `is required with ${level ? "crosses" : "moves"}` } : null;
}

/** What a price condition reads of a token: token_metrics' price and price changes (null: no price yet). */
export type PricedToken = { priceUsd: number } & Record<(typeof PRICE_WINDOWS)[PriceWindow]["column"], number | null>;

/**
 * Whether a token's price meets the condition. A token without a price (0: no pool with enough
 * quote liquidity, null changes) meets none, so a price never "falls below" a level by losing it.
 */
export function priceConditionHolds(t: PricedToken, c: PriceConditions): boolean {
  const price = t.priceUsd;
  if (c.crosses) return price > 0 && (c.crosses === "above" ? price >= c.price_usd! : price <= c.price_usd!);
  const change = t[PRICE_WINDOWS[c.window!].column];
  if (change === null || !Number.isFinite(change)) return false;
  const at = c.change_pct!;
  return c.moves === "up" ? change >= at : c.moves === "down" ? change <= -at : Math.abs(change) >= at;
}

/** The values behind a price condition, as the API names them (price_usd, price_change_<window>_pct). */
export function explainPrice(t: PricedToken, c: PriceConditions): Record<string, number> {
  if (c.crosses) return { price_usd: t.priceUsd };
  return { price_usd: t.priceUsd, [`price_change_${c.window}_pct`]: t[PRICE_WINDOWS[c.window!].column] ?? 0 };
}

/** Why a token matches a state alert (token filter or price), for its notification. */
export function explainTokenMatch(
  kind: "token" | "price",
  t: FilterableToken & PricedToken,
  conditions: TokenFilter | PriceConditions,
  now: Date,
): Record<string, number | string[]> {
  if (kind === "price") return explainPrice(t, conditions as PriceConditions);
  return explainMatch(t, conditions as TokenFilter, now);
}
