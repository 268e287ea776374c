import Link from "next/link";
import { TOKEN_SORT_ORDERS, type TokenSort } from "@/lib/domain/vocab";
import type { Token } from "@/lib/queries/tokens";
import { formatAge, formatCompact, formatUsd } from "../format";
import { RiskFlags, RiskScore } from "../risk";
import { numClass, rowClass, TableFrame, tdClass, thClass } from "../ui/table";

/**
 * The token_metrics column each table column shows; a column can be sorted by every sort of
 * GET /v1/tokens over that column (TOKEN_SORT_ORDERS), in each direction the API offers.
 * Age runs opposite to its column: the newest token (latest created_at) is the youngest.
 */
const SORT_COLUMN: Record<string, { column: string; inverted?: boolean }> = {
  "Market cap": { column: "marketCapUsd" },
  Liquidity: { column: "liquidityUsd" },
  "Vol 24h": { column: "volume24hUsd" },
  Holders: { column: "holderCount" },
  Age: { column: "createdAtMs", inverted: true },
  Risk: { column: "riskScore" },
};

const SORT_ORDERS = Object.entries(TOKEN_SORT_ORDERS) as [TokenSort, { column: string; descending: boolean; description: string }][];

/** The sorts of a table column, the column's largest (riskiest, newest) first. */
function columnSorts(label: string): { sort: TokenSort; ascending: boolean; description: string }[] {
  const c = SORT_COLUMN[label];
  if (!c) return [];
  return SORT_ORDERS.filter(([, o]) => o.column === c.column)
    .sort(([, a], [, b]) => Number(b.descending) - Number(a.descending))
    .map(([sort, o]) => ({ sort, ascending: o.descending === Boolean(c.inverted), description: o.description }));
}

type Column = { label: string; className: string; cell: (t: Token) => React.ReactNode };

const COLUMNS: Column[] = [
  {
    label: "Token",
    className: "w-56",
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
  // Without a price (no pool holds the minimum liquidity) there is no market cap to show, as on the token page.
  { label: "Market cap", className: `w-28 ${numClass}`, cell: (t) => (t.price_usd > 0 ? formatUsd(t.market_cap_usd) : "—") },
  { label: "Liquidity", className: `w-28 ${numClass}`, cell: (t) => formatUsd(t.liquidity_usd) },
  { label: "Vol 24h", className: `w-28 ${numClass}`, cell: (t) => formatUsd(t.volume_24h_usd) },
  { label: "Holders", className: `w-24 ${numClass}`, cell: (t) => formatCompact(t.holder_count) },
  { label: "Age", className: `w-20 ${numClass}`, cell: (t) => formatAge(t.age_hours) },
  { label: "Risk", className: "w-16 text-center", cell: (t) => <RiskScore score={t.risk_score} /> },
  { label: "Flags", className: "w-64", cell: (t) => <RiskFlags flags={t.risk_flags} /> },
  { label: "Launchpad", className: "w-32 truncate", cell: (t) => t.launchpad },
];

export function TokenTable({ tokens, label, sort, onSort }: { tokens: Token[]; label: string; sort?: TokenSort; onSort?: (sort: TokenSort) => void }) {
  return (
    <TableFrame label={label}>
      <table className="w-full min-w-[960px] table-fixed text-sm">
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
                      className={`uppercase tracking-wide hover:text-zinc-900 dark:hover:text-zinc-100 ${current ? "text-zinc-900 dark:text-zinc-100" : ""}`}
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
                  {c.cell(t)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
