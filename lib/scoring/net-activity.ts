/**
 * net_activity of a holder in a token: the direction of its recent trading relative to its
 * position. accumulating / distributing when the window's net buys or sells move at least
 * minChange of the position, exited when (almost) nothing is left, else holding.
 */

import type { NetActivity } from "@/lib/domain/vocab";
import { sum } from "./ramp";
import type { Trade } from "./token-input";
import { NET_ACTIVITY_RULE, WINDOWS } from "./weights";

export type NetActivityInput = {
  /** Balance now (token units). */
  balance: number;
  /** Tokens bought and sold in the last WINDOWS.netActivitySeconds. */
  recentBought: number;
  recentSold: number;
};

export function netActivity({ balance, recentBought, recentSold }: NetActivityInput): NetActivity {
  // The largest the position can have been during the window: what is left plus what was sold.
  const reference = balance + recentSold;
  if (balance <= 0 || balance <= NET_ACTIVITY_RULE.exitedBelowShare * reference) return "exited";
  const change = (recentBought - recentSold) / reference;
  if (change >= NET_ACTIVITY_RULE.minChange) return "accumulating";
  if (change <= -NET_ACTIVITY_RULE.minChange) return "distributing";
  return "holding";
}

/** Tokens bought and sold in the net-activity window ending at `now` (Unix seconds). */
export function recentFlows(trades: Trade[], now: number): Pick<NetActivityInput, "recentBought" | "recentSold"> {
  const recent = trades.filter((t) => t.timestamp > now - WINDOWS.netActivitySeconds && t.timestamp <= now);
  const amount = (direction: Trade["direction"]) =>
    sum(recent.filter((t) => t.direction === direction).map((t) => t.tokenAmount));
  return { recentBought: amount("buy"), recentSold: amount("sell") };
}
