import Link from "next/link";
import type { listPositions } from "@/lib/queries/positions";
import { formatCompact, formatSignedUsd, formatUsd } from "../format";
import { Badge } from "../ui/badge";
import { numClass, rowClass, TableFrame, TableHead, tdClass } from "../ui/table";

type Position = NonNullable<Awaited<ReturnType<typeof listPositions>>>["data"][number];

const pnlClass = (n: number) =>
  n > 0 ? "text-emerald-700 dark:text-emerald-400" : n < 0 ? "text-red-700 dark:text-red-400" : "";
const HEADERS = [
  "Token",
  "Status",
  ...["Quantity", "Value", "Cost basis", "Realized PnL", "Unrealized PnL", "Buys / sells"].map((label) => ({
    label,
    numeric: true,
  })),
];

/** A wallet's positions (GET /v1/wallets/{address}/positions): open ones by value, then closed ones by realized PnL. */
export function PositionsTable({ positions }: { positions: Position[] }) {
  return (
    <TableFrame label="Positions" maxHeight>
      <table className="w-full min-w-[760px] text-sm">
        <TableHead cells={HEADERS} sticky />
        <tbody>
          {positions.map((p) => (
            <tr key={p.token_address} className={rowClass}>
              <td className={tdClass}>
                <Link
                  href={`/tokens/${p.token_address}`}
                  className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                >
                  {p.token_symbol}
                </Link>
              </td>
              <td className={tdClass}>
                <Badge tone={p.status === "open" ? "good" : "neutral"}>{p.status}</Badge>
              </td>
              <td className={`${tdClass} ${numClass}`}>{formatCompact(p.quantity)}</td>
              <td className={`${tdClass} ${numClass}`}>{formatUsd(p.value_usd)}</td>
              <td className={`${tdClass} ${numClass}`}>{formatUsd(p.cost_basis_usd)}</td>
              <td className={`${tdClass} ${numClass} ${pnlClass(p.realized_pnl_usd)}`}>
                {formatSignedUsd(p.realized_pnl_usd)}
              </td>
              <td className={`${tdClass} ${numClass} ${pnlClass(p.unrealized_pnl_usd)}`}>
                {formatSignedUsd(p.unrealized_pnl_usd)}
              </td>
              <td className={`${tdClass} ${numClass}`}>
                {p.buy_count} / {p.sell_count}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
