import { z } from "zod";
import { CLASSIFICATIONS, CONFIDENCE, SECTORS } from "@/lib/domain/vocab";
import { timestampSchema } from "./common";

export const holding = z.object({ token_address: z.string(), token_symbol: z.string(), quantity: z.number(), value_usd: z.number() }).meta({ id: "Holding" });

export const walletProfile = z
  .object({
    address: z.string(),
    classification: z.enum(CLASSIFICATIONS),
    reputation_score: z.number().min(0).max(100),
    reputation_confidence: z.enum(CONFIDENCE),
    portfolio: z.array(holding),
    pnl_estimate_usd: z.number(),
    pnl_confidence: z.enum(CONFIDENCE),
    sector_preference: z.enum(SECTORS),
    trade_count: z.number().int(),
    first_seen: timestampSchema,
  })
  .meta({ id: "WalletProfile" });
