/**
 * The closed vocabularies of the scoring engine (DESIGN.md, "API decisions"). The API schemas,
 * the token filter and the scores all read them from here.
 */

export const RISK_FLAGS = [
  "wash_trading",
  "liquidity_pulled",
  "concentrated_ownership",
  "sybil_cluster",
  "smart_money_exiting",
] as const;
export type RiskFlag = (typeof RISK_FLAGS)[number];

/** Ordered from least to most risky; the bands are in weights.ts (RISK_LEVEL_UPPER_BOUNDS). */
export const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const CLASSIFICATIONS = [
  "smart_money",
  "sniper",
  "bot",
  "insider",
  "whale",
  "wash_trader",
  "fresh",
  "retail",
] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export const NET_ACTIVITY = ["accumulating", "distributing", "holding", "exited"] as const;
export type NetActivity = (typeof NET_ACTIVITY)[number];

export const CONFIDENCE = ["low", "medium", "high"] as const;
export type Confidence = (typeof CONFIDENCE)[number];

export const SECTORS = ["meme", "ai", "defi", "gaming", "other"] as const;
export type Sector = (typeof SECTORS)[number];

/** Why a balance is not a holding (DESIGN: excluded from holder counts and concentration). */
export const HOLDER_TAGS = ["pool", "burn", "contract"] as const;
export type HolderTag = (typeof HOLDER_TAGS)[number];
