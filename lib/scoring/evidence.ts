/** Builds the explainable record behind a raised flag (stored as token_scores.flag_evidence). */
import type { FlagEvidence } from "@/db/schema/scores";
import type { RiskFlag } from "./vocab";
import { MAX_EVIDENCE_ITEMS } from "./weights";

export type { FlagEvidence };

const firstUnique = (xs: string[]) => [...new Set(xs)].slice(0, MAX_EVIDENCE_ITEMS);

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
  },
): FlagEvidence {
  return {
    flag,
    wallets: firstUnique(parts.wallets),
    tx_hashes: firstUnique(parts.txHashes),
    funder: parts.funder ?? null,
    metrics: rounded(parts.metrics),
    thresholds: { ...parts.thresholds },
  };
}
