import type { z } from "zod";
import type { creatorHolding, tokenCreator } from "@/lib/api/schemas/tokens";
import type { launchSummary } from "@/lib/api/schemas/wallets";
import { formatCompact, formatPct, formatUsd } from "../format";

type CreatorHolding = z.infer<typeof creatorHolding>;
type TokenCreator = z.infer<typeof tokenCreator>;
type LaunchSummary = z.infer<typeof launchSummary>;

/**
 * The creator and launch figures in words, as the token and wallet pages say them ("created 7
 * tokens, pulled liquidity on 5"); the browser tests read the same functions.
 */

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "created 7 tokens, pulled liquidity on 5; 1 abandoned, 1 still trading" (capitalised by the page). */
export function launchesSentence(s: LaunchSummary): string {
  if (s.total === 0) return "created no indexed token";
  const pulled = s.liquidity_pulled === 0 ? "none" : String(s.liquidity_pulled);
  const rest = [
    s.abandoned ? `${s.abandoned} abandoned` : null,
    s.trading ? `${s.trading} still trading` : null,
  ].filter((part) => part !== null);
  const created = `created ${plural(s.total, "token")}, pulled liquidity on ${pulled}`;
  return rest.length ? `${created}; ${rest.join(", ")}` : created;
}

/** Why the creator is unknown, naming what the token came through. */
export function unknownCreatorText(c: TokenCreator): string {
  return c.unknown_reason === "found_through_pool"
    ? `Creator unknown: the token was found through a ${c.via.name} pool, which does not say who deployed it.`
    : `Creator unknown: ${c.via.name}'s launch event names none.`;
}

/** "Holds 68.6M RESD, 6.86% of the supply ($5.6K)". */
export function creatorHoldingText(h: CreatorHolding, symbol: string): string {
  if (h.quantity === 0) return "Holds none of it now.";
  const share = `${formatPct(h.holding_pct, 2)} of the supply`;
  return `Holds ${formatCompact(h.quantity)} ${symbol}, ${share} (${formatUsd(h.value_usd)}).`;
}

/** Whether the creator sold, with its sells or buys. */
export function creatorSoldText(h: CreatorHolding): string {
  const sells = `${plural(h.sell_count, "sell")} for ${formatUsd(h.sold_usd)}`;
  switch (h.sold) {
    case "sold_all":
      return `Sold all: ${sells}, nothing left.`;
    case "sold_some":
      return `Sold some: ${sells}, still holding the rest.`;
    case "bought_more":
      return `Bought more: ${plural(h.buy_count, "buy")} on the market, never sold.`;
    case "not_sold":
      return "Has not sold.";
  }
}
