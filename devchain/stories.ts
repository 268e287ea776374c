import type { RiskFlag } from "@/lib/domain/vocab";

/**
 * The stories planted in a token, one vocabulary for the market simulator (devchain/simulator,
 * its ground truth's labels) and the fixture generator (scripts/fixtures, its scenarios), with the
 * risk flag each should raise, and the hard negatives: stories that look like a flag's pattern
 * but must not raise it. Wallet classes are the API's (CLASSIFICATIONS in lib/domain/vocab.ts).
 */
export const STORY_FLAGS = {
  rug_pull: "liquidity_pulled",
  slow_rug: "liquidity_pulled",
  wash_trading: "wash_trading",
  sybil_launch: "sybil_cluster",
  smart_money_exit: "smart_money_exiting",
  // The simulator finds it from the true owners (ownership.ts) rather than a label of its own.
  concentrated_ownership: "concentrated_ownership",
} as const satisfies Record<string, RiskFlag>;

export const HARD_NEGATIVES = {
  lp_migration: "liquidity_pulled",
  market_maker: "wash_trading",
  airdrop: "sybil_cluster",
  // A V3 position locked for good whose creator claims its fees: the pool's Burn and Collect
  // events look like a withdrawal, but no liquidity leaves.
  locked_liquidity: "liquidity_pulled",
  // V2 LP shares burned for good: the pool can no longer be pulled.
  lp_burn: "liquidity_pulled",
} as const satisfies Record<string, RiskFlag>;

/** Stories told for what they show besides a flag. */
const OTHER_STORIES = ["insiders", "sniped"] as const;

export type FlagStory = keyof typeof STORY_FLAGS;
export type TokenStory = FlagStory | keyof typeof HARD_NEGATIVES | (typeof OTHER_STORIES)[number];

/** The flags a planted story should raise: those with a ground truth to be measured against. */
export const PLANTED_FLAGS: ReadonlySet<RiskFlag> = new Set(Object.values(STORY_FLAGS));
