import { z } from "zod";
import {
  CLASSIFICATIONS,
  CONFIDENCE,
  LAUNCH_OUTCOME_WORDS,
  LAUNCH_OUTCOMES,
  POSITION_STATUSES,
  RISK_FLAGS,
  SECTORS,
} from "@/lib/domain/vocab";
import { NO_EVIDENCE_REPUTATION } from "@/lib/scoring/no-evidence";
import { cursorListEnvelope, cursorParam, paginationQuery, timestampSchema } from "./common";

export const holding = z
  .object({
    token_address: z.string().meta({ description: "Token contract address" }),
    token_symbol: z.string().meta({ description: "Token symbol" }),
    quantity: z.number().meta({ description: "Tokens held, in whole units" }),
    value_usd: z.number().meta({ description: "quantity at the token's price_usd" }),
  })
  .meta({ id: "Holding" });

/** What each launch outcome means, for the summary's counts and the launches' outcome alike. */
const OUTCOME_WORDS = LAUNCH_OUTCOMES.map((o) => `${o} (${LAUNCH_OUTCOME_WORDS[o]})`).join(", ");

export const launchSummary = z
  .object({
    total: z.number().int().meta({ description: "Tokens the wallet created (launch events naming it as creator)" }),
    trading: z.number().int().meta({ description: "Of them, still trading" }),
    liquidity_pulled: z.number().int().meta({ description: "Of them, with the liquidity pulled" }),
    abandoned: z.number().int().meta({ description: "Of them, abandoned" }),
  })
  .meta({ id: "LaunchSummary", description: `The wallet's launches by outcome: ${OUTCOME_WORDS}` });

export const walletProfile = z
  .object({
    address: z.string().meta({ description: "Wallet address, lowercase" }),
    classification: z.enum(CLASSIFICATIONS).meta({
      description: "Behavioural class: smart_money, sniper, bot, insider, whale, wash_trader, fresh or retail",
    }),
    reputation_score: z
      .number()
      .min(0)
      .max(100)
      .meta({
        description:
          `Wallet reputation score, 0 to 100; ${NO_EVIDENCE_REPUTATION} (no evidence) before the wallet ` +
          "is first scored",
      }),
    reputation_confidence: z
      .enum(CONFIDENCE)
      .meta({ description: "Confidence in the reputation score: low, medium or high" }),
    portfolio: z.array(holding).meta({ description: "Current holdings, largest value first" }),
    pnl_estimate_usd: z
      .number()
      .meta({ description: "Estimated profit and loss in USD: realized plus unrealized over every position" }),
    pnl_confidence: z.enum(CONFIDENCE).meta({
      description: "Confidence in the PnL estimate: low, medium or high (lower with more tokens of unknown cost)",
    }),
    sector_preference: z
      .enum(SECTORS)
      .meta({ description: "The sector holding most of the wallet's volume: meme, ai, defi, gaming or other" }),
    trade_count: z.number().int().meta({ description: "Number of trades (swaps) the wallet made" }),
    first_seen: timestampSchema,
    launches: launchSummary,
  })
  .meta({ id: "WalletProfile" });

export const positionListQuery = z.object({
  status: z
    .enum(POSITION_STATUSES)
    .default("all")
    .meta({ description: "open: the wallet holds the token; closed: it held it and holds none now" }),
  ...paginationQuery,
  cursor: cursorParam,
});

const usdField = (description: string) => z.number().meta({ description });

export const position = z
  .object({
    token_address: z.string().meta({ description: "Token contract address" }),
    token_symbol: z.string().meta({ description: "Token symbol" }),
    status: z
      .enum(["open", "closed"])
      .meta({ description: "open (holds the token) or closed (held it, holds none now)" }),
    quantity: z.number().meta({ description: "Tokens held, in whole units" }),
    value_usd: usdField("quantity at the token's price_usd"),
    cost_basis_usd: usdField(
      "Average cost of the quantity held; tokens received without a known cost (transfers in) count at zero, " +
        "tokens the wallet's liquidity removal paid it at their value then",
    ),
    realized_pnl_usd: usdField(
      "Profit or loss realized: sells' USD less the average cost of what they sold, fee-on-transfer fees at " +
        "their cost, and what liquidity removals paid out (quote and tokens) less the share of the liquidity's " +
        "cost they released",
    ),
    unrealized_pnl_usd: usdField("value_usd less cost_basis_usd"),
    pnl_usd: usdField("realized plus unrealized; the wallet's pnl_estimate_usd is the sum over its positions"),
    bought_usd: usdField("USD spent on buys"),
    sold_usd: usdField("USD received from sells"),
    buy_count: z.number().int().meta({ description: "Buys of the token" }),
    sell_count: z.number().int().meta({ description: "Sells of the token" }),
    unknown_cost_quantity: z
      .number()
      .meta({ description: "Part of quantity received without a known cost (lowers pnl_confidence)" }),
    liquidity_cost_usd: usdField(
      "What the wallet has in the token's pools as liquidity, at cost: its tokens' average cost and the quote " +
        "it paid in, less what its removals released. Counted at cost: neither in value_usd nor in the PnL until " +
        "taken out",
    ),
    first_trade_at: timestampSchema.nullable().meta({
      description: "Time of the first buy (of the last trade when the position never bought); null without a trade",
    }),
    last_trade_at: timestampSchema
      .nullable()
      .meta({ description: "Time of the last buy or sell; null without a trade" }),
  })
  .meta({ id: "Position" });

export const positionList = cursorListEnvelope(position, "PositionList");

export const launchListQuery = z.object({ ...paginationQuery, cursor: cursorParam });

export const launch = z
  .object({
    token_address: z.string().meta({ description: "Token contract address" }),
    token_symbol: z.string().meta({ description: "Token symbol" }),
    token_name: z.string().meta({ description: "Token name" }),
    launchpad: z.string().meta({ description: "Configured name of the launchpad it was launched on" }),
    created_at: timestampSchema.meta({ description: "Time of the launch block" }),
    outcome: z.enum(LAUNCH_OUTCOMES).meta({ description: `What became of it: ${OUTCOME_WORDS}` }),
    price_usd: z.number().meta({ description: "USD price now (as the token's price_usd)" }),
    market_cap_usd: z.number().meta({ description: "Market cap in USD now" }),
    liquidity_usd: z.number().meta({ description: "Liquidity in USD now" }),
    volume_24h_usd: z.number().meta({ description: "USD swapped in the 24 h up to the indexed head" }),
    risk_score: z.number().min(0).max(100).meta({ description: "Composite risk score, 0 to 100" }),
    risk_flags: z.array(z.enum(RISK_FLAGS)).meta({ description: "Risk flags raised for the token" }),
    last_trade_at: timestampSchema
      .nullable()
      .meta({ description: "Time of the token's last swap, anyone's; null when it was never swapped" }),
  })
  .meta({ id: "Launch" });

export const launchList = cursorListEnvelope(launch, "LaunchList");
