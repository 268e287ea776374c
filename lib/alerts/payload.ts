import type { AlertConditions, WalletAction } from "@/lib/domain/alert-conditions";
import type { AlertKind } from "@/lib/domain/vocab";

/** A message lists at most this many tokens (or events); the rest are counted and linked. */
export const MAX_LISTED_MATCHES = 20;

/**
 * What a notification says (notifications.payload): the email and the webhook body are both
 * rendered from it, so every retry of a notification sends the same content. Token and price
 * alerts announce tokens (`matches`); wallet and smart-money alerts announce events (`events`),
 * their `matches` empty.
 */
export type AlertNotification = {
  type: "alert.triggered";
  /** `kind` is absent from notifications made before alerts had kinds: those are token alerts. */
  alert: { id: string; name: string; kind?: AlertKind; conditions: AlertConditions };
  triggered_at: string;
  /** The tokens that newly match, first matched first, at most MAX_LISTED_MATCHES. */
  matches: MatchedToken[];
  /** How many tokens newly match, listed or not. */
  total_matches: number;
  /** Event kinds: the events of the block batch that fired the alert, in chain order, at most MAX_LISTED_MATCHES. */
  events?: AlertEvent[];
  /** Event kinds: how many events fired it, listed or not. */
  total_events?: number;
};

export type MatchedToken = {
  address: string;
  name: string;
  symbol: string;
  matched_at: string;
  /** The value behind each condition (explainTokenMatch), as of the firing. */
  values: Record<string, number | string[]>;
};

/**
 * An on-chain event a wallet or smart-money alert fired for. `id` is the event's id in
 * /v1/events (`launch:<token>` for a launch, which is a token's creation, not an event): a
 * receiver that saw an id has seen the event.
 */
export type AlertEvent = {
  id: string;
  /** buy and sell: the wallet's swap; receive: a transfer to it; launch: a token it created. */
  type: WalletAction;
  /** The watched wallet (the buyer for smart money). */
  wallet_address: string;
  /** The sender of a receipt; null otherwise. */
  from_address: string | null;
  token_address: string;
  name: string;
  symbol: string;
  amount_usd: number;
  tx_hash: string;
  block_number: number;
  timestamp: string;
};

/**
 * The outcome of one delivery attempt; permanent failures are not retried. `error` is shown to
 * the alert's owner (last_error); `detail`, when given, only goes to the log.
 */
export type DeliveryResult = { ok: true } | { ok: false; error: string; detail?: string; permanent: boolean };
