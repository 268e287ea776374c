/**
 * A token's security checks as the worker stores them (worker/security) and the API serves them
 * (lib/queries/security.ts adds when and at which block they ran). Each check either ran (`ok`)
 * or could not (`unknown`, with the reason in words): an unknown is never read as safe.
 */

export const CHECK_STATUSES = ["ok", "unknown"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export const HONEYPOT_VERDICTS = ["yes", "no", "unknown"] as const;
export type HoneypotVerdict = (typeof HONEYPOT_VERDICTS)[number];

/** Why a sell counts as a honeypot's. */
export const HONEYPOT_REASONS = ["sell_reverts", "sell_returns_almost_nothing"] as const;
export type HoneypotReason = (typeof HONEYPOT_REASONS)[number];

/** Who controls the contract: an owner address, an owner renounced (zero or dead address), no owner() at all. */
export const OWNER_STATES = ["active", "renounced", "none"] as const;
export type OwnerState = (typeof OWNER_STATES)[number];

/** When locked liquidity can leave its locker: never, whenever its owner asks, or not known. */
export const LOCK_RELEASES = ["never", "by_owner", "unknown"] as const;
export type LockRelease = (typeof LOCK_RELEASES)[number];

/** A sell that returns at most this share of what an untaxed token would is a honeypot's. */
export const HONEYPOT_SELL_TAX_PCT = 90;

type Check = { status: CheckStatus; reason?: string };

export type TradeCheck = Check & {
  /** The pool the small buy and sell were simulated in. */
  pool?: string;
  buy_tax_pct?: number;
  sell_tax_pct?: number;
  honeypot: HoneypotVerdict;
  honeypot_reason?: HoneypotReason;
};

export type OwnerCheck = Check & { state?: OwnerState; address?: string };

export type CodeCheck = Check & {
  can_mint?: boolean;
  can_pause?: boolean;
  can_blacklist?: boolean;
  can_change_fees?: boolean;
  proxy?: boolean;
  /** A proxy's implementation (EIP-1967 slot, its beacon's, or an EIP-1167 clone's target). */
  implementation?: string;
};

export type LpLock = { locker: string; name: string; share_pct: number; release: LockRelease };

export type LiquidityCheck = Check & {
  pool?: string;
  burnt_pct?: number;
  locked_pct?: number;
  free_pct?: number;
  locks?: LpLock[];
};

export type SecurityReport = { trade: TradeCheck; owner: OwnerCheck; code: CodeCheck; liquidity: LiquidityCheck };

/** The verdict a sell gives: a revert or (almost) nothing back is a honeypot's. */
export function honeypotOf(
  sold: boolean,
  sellTaxPct: number | undefined,
): Pick<TradeCheck, "honeypot" | "honeypot_reason"> {
  if (!sold) return { honeypot: "yes", honeypot_reason: "sell_reverts" };
  if (sellTaxPct !== undefined && sellTaxPct >= HONEYPOT_SELL_TAX_PCT)
    return { honeypot: "yes", honeypot_reason: "sell_returns_almost_nothing" };
  return { honeypot: "no" };
}
