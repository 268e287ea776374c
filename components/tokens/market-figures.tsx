import type { Token } from "@/lib/queries/tokens";
import { formatPrice } from "../charts/candles";
import { formatAge, formatCompact, formatInteger, formatUsd } from "../format";
import { Flash } from "../live/flash";
import { Stat } from "../ui/stat";
import { PriceChange } from "./price-change";

/** Buys against sells, as a bar: green for the buys' share, red for the sells'. */
function BuySellBar({ buys, sells }: { buys: number; sells: number }) {
  const total = buys + sells;
  if (!total) return null;
  return (
    <span className="mt-1 flex h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700" aria-hidden="true">
      <span className="bg-emerald-500" style={{ width: `${(100 * buys) / total}%` }} />
      <span className="bg-red-500" style={{ width: `${(100 * sells) / total}%` }} />
    </span>
  );
}

/**
 * What a trader reads first on a token: price and its moves, market cap and FDV, liquidity,
 * volume, the day's buys and sells and who made them, holders and age. Without a price (no pool
 * holds the minimum liquidity) the figures made from it say so, never a $0.
 */
export function MarketFigures({ token }: { token: Token }) {
  const priced = token.price_usd > 0;
  const { buys, sells } = token.txns_24h;
  return (
    <dl className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Market figures">
      {/* On a phone the price and its moves take a row each: three changes side by side need the width. */}
      <Stat
        className="col-span-2 sm:col-span-1"
        label="Price now"
        value={<Flash>{priced ? formatPrice(token.price_usd) : "—"}</Flash>}
        hint={priced ? "Deepest pool, at the indexed block" : "No pool holds the minimum liquidity"}
      />
      <Stat
        className="col-span-2 sm:col-span-1"
        label="Price change"
        value={
          <span className="grid grid-cols-3 gap-1 text-base">
            {(
              [
                ["5m", token.price_change_5m_pct],
                ["1h", token.price_change_1h_pct],
                ["24h", token.price_change_24h_pct],
              ] as const
            ).map(([window, pct]) => (
              <span key={window} className="min-w-0" data-window={window}>
                <span className="block text-xs font-normal text-zinc-500 dark:text-zinc-400">{window}</span>
                <Flash>
                  <PriceChange pct={pct} />
                </Flash>
              </span>
            ))}
          </span>
        }
      />
      <Stat
        label="Market cap"
        value={<Flash>{priced ? formatUsd(token.market_cap_usd) : "—"}</Flash>}
        hint="Circulating supply"
      />
      <Stat label="FDV" value={<Flash>{priced ? formatUsd(token.fdv_usd) : "—"}</Flash>} hint="Total supply" />
      <Stat label="Liquidity" value={<Flash>{formatUsd(token.liquidity_usd)}</Flash>} hint="Over its quote pools" />
      <Stat
        label="Volume 24h"
        value={<Flash>{formatUsd(token.volume_24h_usd)}</Flash>}
        hint={`${formatUsd(token.volume_1h_usd)} in the last hour`}
      />
      <Stat
        label="Buys / sells 24h"
        value={
          <Flash>
            <span className="text-emerald-700 dark:text-emerald-400">{formatInteger(buys)}</span>
            <span className="text-zinc-400"> / </span>
            <span className="text-red-700 dark:text-red-400">{formatInteger(sells)}</span>
          </Flash>
        }
        hint={<BuySellBar buys={buys} sells={sells} />}
      />
      <Stat
        label="Makers 24h"
        value={<Flash>{formatInteger(token.makers_24h)}</Flash>}
        hint="Wallets that swapped it"
      />
      <Stat label="Holders" value={<Flash>{formatCompact(token.holder_count)}</Flash>} />
      <Stat label="Age" value={formatAge(token.age_hours)} />
    </dl>
  );
}
