import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryPrepared } from "@/db/client";
import { wallets } from "@/db/schema";
import type { walletProfile } from "@/lib/api/schemas/wallets";
import type { Classification, Confidence, Sector } from "@/lib/domain/vocab";
import { iso, round, toUnits } from "./format";

type WalletRow = {
  address: string;
  classification: Classification;
  score_classification: Classification | null;
  reputation_score: number | null;
  confidence: Confidence | null;
  pnl_estimate_usd: number;
  pnl_confidence: Confidence;
  sector_preference: Sector;
  trade_count: number;
  /** Text: the Drizzle driver turns off the client's timestamp parsing. */
  first_seen: string;
};
type HoldingRow = { token_address: string; symbol: string; decimals: number; quantity: string; value_usd: number };

/** The wallet and its holdings (as one JSON array) in one statement. */
export async function getWalletProfile(db: Db, address: string): Promise<z.infer<typeof walletProfile> | null> {
  const [w] = await queryPrepared<WalletRow & { holdings: HoldingRow[] }>(
    db,
    sql`select w.address, w.classification, s.classification as score_classification, s.reputation_score, s.confidence,
               w.pnl_estimate_usd, w.pnl_confidence, w.sector_preference, w.trade_count, w.first_seen,
               (select coalesce(json_agg(h order by h.value_usd desc, h.token_address), '[]') from (
                  select p.token_address, t.symbol, t.decimals, p.quantity::text as quantity,
                         (p.quantity / power(10::numeric, t.decimals))::float8 * coalesce(m.price_usd, 0) as value_usd
                    from wallet_positions p
                    join tokens t on t.address = p.token_address
                    left join token_metrics m on m.address = p.token_address
                   where p.wallet = w.address and p.quantity > 0
               ) h) as holdings
          from wallets w left join wallet_scores s on s.address = w.address
         where w.address = ${address}`,
  );
  if (!w) return null;

  return {
    address: w.address,
    classification: w.score_classification ?? w.classification,
    reputation_score: round(w.reputation_score ?? 0, 1),
    reputation_confidence: w.confidence ?? "low",
    portfolio: w.holdings.map((h) => ({
      token_address: h.token_address,
      token_symbol: h.symbol,
      quantity: toUnits(h.quantity, h.decimals),
      value_usd: round(h.value_usd, 2),
    })),
    pnl_estimate_usd: round(w.pnl_estimate_usd, 2),
    pnl_confidence: w.pnl_confidence,
    sector_preference: w.sector_preference,
    trade_count: w.trade_count,
    first_seen: iso(new Date(w.first_seen)),
  };
}

export async function walletExists(db: Db, address: string): Promise<boolean> {
  const rows = await db.select({ a: wallets.address }).from(wallets).where(eq(wallets.address, address));
  return rows.length > 0;
}
