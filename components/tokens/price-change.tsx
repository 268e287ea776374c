import { formatChangePct } from "../format";

/** A price change in percent, green when up and red when down; "—" without a price to compare. */
export function PriceChange({ pct }: { pct: number | null }) {
  const tone =
    pct === null || formatChangePct(pct) === "0%"
      ? "text-zinc-500 dark:text-zinc-400"
      : pct > 0
        ? "text-emerald-700 dark:text-emerald-400"
        : "text-red-700 dark:text-red-400";
  return (
    <span className={`tabular-nums ${tone}`} title={pct === null ? "No price to compare with" : undefined}>
      {formatChangePct(pct)}
    </span>
  );
}
