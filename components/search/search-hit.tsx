import type { z } from "zod";
import type { searchHit } from "@/lib/api/schemas/search";
import { riskLevel } from "@/lib/scoring/risk";
import { formatPrice } from "../charts/candles";
import { formatCompact, formatUsd, shortAddress } from "../format";
import { RiskFlags, RiskScore } from "../risk";
import { PriceChange } from "../tokens/price-change";
import { ClassificationBadge } from "../wallet-badges";

export type SearchHit = z.infer<typeof searchHit>;

export const hitHref = (hit: Pick<SearchHit, "type" | "address">) => `/${hit.type}s/${hit.address}`;

/** What a match is called: a token's name and symbol, a wallet's short address. */
export function HitName({ hit }: { hit: SearchHit }) {
  return hit.type === "token" ? (
    <>
      {hit.name} <span className="text-zinc-500 dark:text-zinc-400">{hit.symbol}</span>
    </>
  ) : (
    <>
      Wallet <span className="font-mono">{shortAddress(hit.address, 4)}</span>
    </>
  );
}

/**
 * A match's figures: a token's price and 24 h move, liquidity and risk (score, level, flags), so
 * a rugged token does not read as a healthy one; a wallet's class and trades.
 */
export function HitFigures({ hit, flags = true }: { hit: SearchHit; flags?: boolean }) {
  if (hit.type === "wallet") {
    return (
      <span className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <ClassificationBadge value={hit.classification} />
        {formatCompact(hit.trade_count)} trades
      </span>
    );
  }
  return (
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
      <span className="text-zinc-900 dark:text-zinc-100">
        {hit.price_usd > 0 ? formatPrice(hit.price_usd) : "—"} <PriceChange pct={hit.price_change_24h_pct} />
      </span>
      <span>{formatUsd(hit.liquidity_usd)} liquidity</span>
      <span className="inline-flex items-center gap-1">
        <RiskScore score={hit.risk_score} /> {riskLevel(hit.risk_score)} risk
      </span>
      {flags && hit.risk_flags.length > 0 && <RiskFlags flags={hit.risk_flags} />}
    </span>
  );
}
