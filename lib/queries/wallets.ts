import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import type { Db } from "@/db/client";
import type { SqlRow } from "@/db/rows";
import { walletScores, wallets } from "@/db/schema";
import { statement } from "@/db/statement";
import type { walletProfile } from "@/lib/api/schemas/wallets";
import type { Classification, Confidence, Sector } from "@/lib/domain/vocab";
import { NO_EVIDENCE_REPUTATION } from "@/lib/scoring/no-evidence";
import { iso, round } from "./format";
import { type LaunchSummary, launchSummarySql } from "./launches";
import {
  keptMark,
  keptOpenPositions,
  OPEN_POSITIONS_COLUMNS,
  type OpenPositionsRow,
  openPositionsJoin,
  openPositionsOf,
  positionCounts,
  valuationSnapshot,
  valuedOpenPositions,
} from "./open-positions";
import { runRead } from "./read";
import { currentDataVersion } from "./tokens";

const w = aliasColumns(wallets, "w");
const s = aliasColumns(walletScores, "s");
const c = positionCounts;

/** A row of wallets as the reads select it, the vocabularies its text columns hold typed. */
export type WalletRow = SqlRow<typeof wallets, "address" | "tradeCount" | "firstSeen" | "lastSeen"> & {
  classification: Classification;
  pnl_confidence: Confidence;
  sector_preference: Sector;
};

/** What walletProfileRead reads besides the open positions. */
type ProfileRow = Pick<
  WalletRow,
  "address" | "classification" | "pnl_confidence" | "sector_preference" | "trade_count" | "first_seen"
> & {
  score_classification: Classification | null;
  reputation_score: number | null;
  confidence: Confidence | null;
  /** Σ over the wallet's positions of realized PnL less cost basis (wallet_position_counts). */
  realized_less_cost_usd: number;
  launches: LaunchSummary;
};

const walletProfileSql = statement<"address" | "keptMark">(
  (v) => sql`select ${w.address}, ${w.classification}, ${s.classification} as score_classification,
                      ${s.reputationScore}, ${s.confidence},
                      coalesce(${c.realizedLessCostUsd}, 0)::float8 as realized_less_cost_usd, ${w.pnlConfidence},
                      ${w.sectorPreference}, ${w.tradeCount}, ${w.firstSeen},
                      ${launchSummarySql(w.address)} as launches,
                      ${OPEN_POSITIONS_COLUMNS}
                 from ${wallets} w left join ${walletScores} s on ${s.address} = ${w.address}
                 ${openPositionsJoin(w.address, v.keptMark, true)}
                where ${w.address} = ${v.address}`,
);

/**
 * The wallet, with its open positions by value as its portfolio (kept between reads while they
 * do not change, open-positions.ts), in one statement. Its PnL is that of its positions as the
 * positions list has them: realized PnL less cost basis over all of them, plus the portfolio's
 * value, at the prices of the data version's snapshot (valuationSnapshot).
 */
export function walletProfileRead(db: Db, address: string) {
  const kept = keptOpenPositions(db, address);
  return {
    first: walletProfileSql({ address, keptMark: keptMark(kept) }),
    answer: async (w: ProfileRow & OpenPositionsRow, dataVersion?: number): Promise<z.infer<typeof walletProfile>> => {
      const snapshot = await valuationSnapshot(db, dataVersion ?? (await currentDataVersion(db)));
      const holdings = await valuedOpenPositions(db, snapshot, openPositionsOf(db, address, kept, w));
      return {
        address: w.address,
        classification: w.score_classification ?? w.classification,
        reputation_score: round(w.reputation_score ?? NO_EVIDENCE_REPUTATION, 1),
        reputation_confidence: w.confidence ?? "low",
        portfolio: holdings.map((h) => ({
          token_address: h.token,
          token_symbol: h.symbol,
          quantity: h.units,
          value_usd: round(h.value, 2),
        })),
        pnl_estimate_usd: round(
          holdings.reduce((pnl, h) => pnl + h.value, w.realized_less_cost_usd),
          2,
        ),
        pnl_confidence: w.pnl_confidence,
        sector_preference: w.sector_preference,
        trade_count: w.trade_count,
        first_seen: iso(new Date(w.first_seen)),
        launches: w.launches,
      };
    },
  };
}

export const getWalletProfile = (db: Db, address: string) => runRead(db, walletProfileRead(db, address));

export async function walletExists(db: Db, address: string): Promise<boolean> {
  const rows = await db.select({ a: wallets.address }).from(wallets).where(eq(wallets.address, address));
  return rows.length > 0;
}
