import Link from "next/link";
import type { TokenSort } from "@/lib/domain/vocab";
import type { Token } from "@/lib/queries/tokens";
import { formatAge, formatCompact, formatUsd } from "../format";
import { RiskFlags, RiskScore } from "../risk";
import { numClass, rowClass, TableFrame, tdClass, thClass } from "../ui/table";

/** Columns that a sort of GET /v1/tokens orders by (each sort has one direction). */
const SORTABLE: Partial<Record<string, TokenSort>> = { Liquidity: "liquidity", "Vol 24h": "volume", Age: "newest", Risk: "risk_asc" };

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
  { label: "Market cap", className: `w-28 ${numClass}`, cell: (t) => formatUsd(t.market_cap_usd) },
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
              const columnSort = SORTABLE[c.label];
              const active = columnSort !== undefined && columnSort === sort;
              return (
                <th
                  key={c.label}
                  scope="col"
                  className={`${thClass} ${c.className}`}
                  aria-sort={active ? (sort === "risk_asc" ? "ascending" : "descending") : undefined}
                >
                  {columnSort && onSort ? (
                    <button
                      type="button"
                      onClick={() => onSort(columnSort)}
                      className={`uppercase tracking-wide hover:text-zinc-900 dark:hover:text-zinc-100 ${active ? "text-zinc-900 dark:text-zinc-100" : ""}`}
                    >
                      {c.label}
                      <span aria-hidden="true">{active ? (sort === "risk_asc" ? " ↑" : " ↓") : " ↕"}</span>
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
