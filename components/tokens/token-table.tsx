import Link from "next/link";
import { TOKEN_SORT_ORDERS, type TokenSort } from "@/lib/domain/vocab";
import type { Token } from "@/lib/queries/tokens";
import { riskLevel } from "@/lib/scoring/risk";
import { formatPrice } from "../charts/candles";
import { formatAge, formatCompact, formatUsd } from "../format";
import { Flash } from "../live/flash";
import { RiskFlags, RiskScore } from "../risk";
import { panelClass } from "../ui/surfaces";
import { numClass, rowClass, TableFrame, tdClass, thClass } from "../ui/table";
import { PriceChange } from "./price-change";

/**
 * The token_metrics column each table column shows; a column can be sorted by every sort of
 * GET /v1/tokens over that column (TOKEN_SORT_ORDERS), in each direction the API offers.
 * Age runs opposite to its column: the newest token (latest created_at) is the youngest.
 */
const SORT_COLUMN: Record<string, { column: string; inverted?: boolean }> = {
  Price: { column: "priceUsd" },
  "24h": { column: "priceChange24hPct" },
  "Market cap": { column: "marketCapUsd" },
  Liquidity: { column: "liquidityUsd" },
  "Vol 24h": { column: "volume24hUsd" },
  Holders: { column: "holderCount" },
  Age: { column: "createdAtMs", inverted: true },
  Risk: { column: "riskScore" },
};

const SORT_ORDERS = Object.entries(TOKEN_SORT_ORDERS) as [
  TokenSort,
  { column: string; descending: boolean; description: string },
][];

/** The sorts of a table column, the column's largest (riskiest, newest) first. */
function columnSorts(label: string): { sort: TokenSort; ascending: boolean; description: string }[] {
  const c = SORT_COLUMN[label];
  if (!c) return [];
  return SORT_ORDERS.filter(([, o]) => o.column === c.column)
    .sort(([, a], [, b]) => Number(b.descending) - Number(a.descending))
    .map(([sort, o]) => ({ sort, ascending: o.descending === Boolean(c.inverted), description: o.description }));
}

type Column = { label: string; className: string; cell: (t: Token) => React.ReactNode };

const sortButtonClass = "whitespace-nowrap uppercase tracking-wide hover:text-zinc-900 dark:hover:text-zinc-100";

const COLUMNS: Column[] = [
  {
    label: "Token",
    className: "w-44",
    cell: (t) => (
      <Link
        href={`/tokens/${t.address}`}
        className="block truncate font-medium text-indigo-700 hover:underline dark:text-indigo-300"
        title={`${t.name} (${t.symbol})`}
      >
        {t.name} <span className="text-zinc-500 dark:text-zinc-400">{t.symbol}</span>
      </Link>
    ),
  },
  // Without a price (no pool holds the minimum liquidity) there is no price, change or market cap to show, as on the
  // token page.
  { label: "Price", className: `w-28 ${numClass}`, cell: (t) => (t.price_usd > 0 ? formatPrice(t.price_usd) : "—") },
  { label: "24h", className: `w-18 ${numClass}`, cell: (t) => <PriceChange pct={t.price_change_24h_pct} /> },
  {
    label: "Market cap",
    className: `w-26 ${numClass}`,
    cell: (t) => (t.price_usd > 0 ? formatUsd(t.market_cap_usd) : "—"),
  },
  { label: "Liquidity", className: `w-24 ${numClass}`, cell: (t) => formatUsd(t.liquidity_usd) },
  { label: "Vol 24h", className: `w-24 ${numClass}`, cell: (t) => formatUsd(t.volume_24h_usd) },
  { label: "Holders", className: `w-20 ${numClass}`, cell: (t) => formatCompact(t.holder_count) },
  { label: "Age", className: `w-18 whitespace-nowrap ${numClass}`, cell: (t) => formatAge(t.age_hours) },
  { label: "Risk", className: "w-16 text-center", cell: (t) => <RiskScore score={t.risk_score} /> },
  { label: "Flags", className: "w-52", cell: (t) => <RiskFlags flags={t.risk_flags} /> },
  { label: "Launchpad", className: "w-28 truncate", cell: (t) => t.launchpad },
];

/**
 * A token as a phone reads it, one card per row: name, price and its 24 h move, the market
 * figures in a line, and the risk score with its level and flags, so a rugged token never looks
 * like a healthy one on a small screen.
 */
function TokenCard({ t }: { t: Token }) {
  const priced = t.price_usd > 0;
  return (
    <li data-address={t.address} className="space-y-1 px-3 py-2.5 text-sm">
      <div className="flex items-baseline justify-between gap-3">
        <Link
          href={`/tokens/${t.address}`}
          className="min-w-0 truncate font-medium text-indigo-700 hover:underline dark:text-indigo-300"
        >
          {t.name} <span className="text-zinc-500 dark:text-zinc-400">{t.symbol}</span>
        </Link>
        <span className="shrink-0 tabular-nums">
          <Flash>
            {priced ? formatPrice(t.price_usd) : "—"} <PriceChange pct={t.price_change_24h_pct} />
          </Flash>
        </span>
      </div>
      <p className="flex flex-wrap gap-x-3 text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
        <span>MC {priced ? formatUsd(t.market_cap_usd) : "—"}</span>
        <span>Liq {formatUsd(t.liquidity_usd)}</span>
        <span>Vol {formatUsd(t.volume_24h_usd)}</span>
        <span>{formatCompact(t.holder_count)} holders</span>
        <span>{formatAge(t.age_hours)}</span>
      </p>
      <div className="flex flex-wrap items-center gap-1.5">
        <RiskScore score={t.risk_score} />
        <span className="text-xs text-zinc-600 dark:text-zinc-400">{riskLevel(t.risk_score)} risk</span>
        {t.risk_flags.length > 0 && <RiskFlags flags={t.risk_flags} />}
      </div>
    </li>
  );
}

type TokenTableProps = { tokens: Token[]; label: string; sort?: TokenSort; onSort?: (sort: TokenSort) => void };

/** The token list: a sortable table from a tablet's width up, cards on a phone (the sort is the form's there). */
export function TokenTable(props: TokenTableProps) {
  return (
    <>
      <ul aria-label={props.label} className={`divide-y divide-zinc-100 md:hidden dark:divide-zinc-800 ${panelClass}`}>
        {props.tokens.map((t) => (
          <TokenCard key={t.address} t={t} />
        ))}
      </ul>
      <div className="hidden md:block">
        <SortableTable {...props} />
      </div>
    </>
  );
}

function SortableTable({ tokens, label, sort, onSort }: TokenTableProps) {
  return (
    <TableFrame label={label}>
      <table className="w-full min-w-[1180px] table-fixed text-sm">
        <thead>
          <tr>
            {COLUMNS.map((c) => {
              const sorts = columnSorts(c.label);
              const current = sorts.find((o) => o.sort === sort);
              // A click turns the active column around when the API sorts it both ways.
              const next = current ? (sorts.find((o) => o !== current) ?? current) : sorts[0];
              return (
                <th
                  key={c.label}
                  scope="col"
                  className={`${thClass} ${c.className}`}
                  aria-sort={current ? (current.ascending ? "ascending" : "descending") : undefined}
                >
                  {next && onSort ? (
                    <button
                      type="button"
                      onClick={() => onSort(next.sort)}
                      title={`Sort: ${next.description}`}
                      className={`${sortButtonClass} ${current ? "text-zinc-900 dark:text-zinc-100" : ""}`}
                    >
                      {c.label}
                      <span aria-hidden="true">{current ? (current.ascending ? " ↑" : " ↓") : " ↕"}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.address} data-address={t.address} className={rowClass}>
              {COLUMNS.map((c) => (
                <td key={c.label} className={`${tdClass} ${c.className}`}>
                  <Flash>{c.cell(t)}</Flash>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
