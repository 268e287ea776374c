import { z } from "zod";
import { CLASSIFICATIONS, RISK_FLAGS, SEARCH_TYPES } from "@/lib/domain/vocab";
import { cursorListEnvelope, cursorParam, paginationQuery, timestampSchema } from "./common";

export const searchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, "is required")
    .max(100)
    .meta({
      description: "Start of a token symbol or name (any case), or of a token or wallet address (0x...)",
      examples: ["pepe"],
    }),
  type: z.enum(SEARCH_TYPES).default("all").meta({ description: "Search tokens, wallets or both" }),
  ...paginationQuery,
  cursor: cursorParam,
});

const matched = z.enum(["symbol", "name", "address"]).meta({ description: "What the query matched" });

const tokenHit = z
  .object({
    type: z.literal("token").meta({ description: "token or wallet" }),
    address: z.string().meta({ description: "Token or wallet address, lowercase" }),
    name: z.string().meta({ description: "Token name" }),
    symbol: z.string().meta({ description: "Token symbol" }),
    price_usd: z.number().meta({ description: "As on the token object" }),
    liquidity_usd: z.number().meta({ description: "As on the token object" }),
    volume_24h_usd: z.number().meta({ description: "As on the token object" }),
    price_change_24h_pct: z.number().nullable().meta({ description: "As on the token object" }),
    risk_score: z.number().min(0).max(100).meta({ description: "As on the token object" }),
    risk_flags: z.array(z.enum(RISK_FLAGS)).meta({ description: "As on the token object" }),
    matched,
  })
  .meta({ id: "SearchToken" });

const walletHit = z
  .object({
    type: z.literal("wallet").meta({ description: "token or wallet" }),
    address: z.string().meta({ description: "Token or wallet address, lowercase" }),
    classification: z.enum(CLASSIFICATIONS).meta({
      description: "Behavioural class: smart_money, sniper, bot, insider, whale, wash_trader, fresh or retail",
    }),
    trade_count: z.number().int().meta({ description: "Number of trades (swaps) the wallet made" }),
    last_seen: timestampSchema.meta({ description: "Time of the wallet's last indexed activity" }),
    matched,
  })
  .meta({ id: "SearchWallet" });

export const searchHit = z.discriminatedUnion("type", [tokenHit, walletHit]).meta({ id: "SearchHit" });

export const searchResults = cursorListEnvelope(searchHit, "SearchResults");
