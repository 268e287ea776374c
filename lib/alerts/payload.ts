import type { TokenFilter } from "@/lib/domain/token-filter";

/** A message lists at most this many tokens; the rest are counted and linked. */
export const MAX_LISTED_MATCHES = 20;

/**
 * What a notification says (notifications.payload): the email and the webhook body are both
 * rendered from it, so every retry of a notification sends the same content.
 */
export type AlertNotification = {
  type: "alert.triggered";
  alert: { id: string; name: string; conditions: TokenFilter };
  triggered_at: string;
  /** The tokens that newly match, first matched first, at most MAX_LISTED_MATCHES. */
  matches: MatchedToken[];
  /** How many tokens newly match, listed or not. */
  total_matches: number;
};

export type MatchedToken = {
  address: string;
  name: string;
  symbol: string;
  matched_at: string;
  /** The value behind each condition (explainMatch), as of the firing. */
  values: Record<string, number | string[]>;
};

/**
 * The outcome of one delivery attempt; permanent failures are not retried. `error` is shown to
 * the alert's owner (last_error); `detail`, when given, only goes to the log.
 */
export type DeliveryResult = { ok: true } | { ok: false; error: string; detail?: string; permanent: boolean };
