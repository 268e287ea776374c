/** Builds the explainable record behind a raised flag (stored as token_scores.flag_evidence). */
import type { FlagEvidence } from "@/db/schema/scores";
import type { RiskFlag } from "@/lib/domain/vocab";
import { MAX_EVIDENCE_ITEMS } from "./weights";

export type { FlagEvidence };

const rounded = (m: Record<string, number>) =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Number(v.toPrecision(6))]));

export function flagEvidence(
  flag: RiskFlag,
  parts: {
    wallets: string[];
    txHashes: string[];
    funder?: string | null;
    metrics: Record<string, number>;
    thresholds: Record<string, number>;
    /** The metrics whose condition raised the flag. */
    tripped: string[];
  },
): FlagEvidence {
  const wallets = [...new Set(parts.wallets)];
  const txHashes = [...new Set(parts.txHashes)];
  return {
    flag,
    wallets: wallets.slice(0, MAX_EVIDENCE_ITEMS),
    tx_hashes: txHashes.slice(0, MAX_EVIDENCE_ITEMS),
    wallet_count: wallets.length,
    tx_count: txHashes.length,
    funder: parts.funder ?? null,
    metrics: rounded(parts.metrics),
    thresholds: { ...parts.thresholds },
    tripped: parts.tripped,
  };
}
