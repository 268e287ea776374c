import Link from "next/link";
import type { z } from "zod";
import type { pool } from "@/lib/api/schemas/market";
import { Address } from "../address";
import { formatPrice } from "../charts/candles";
import { formatUsd } from "../format";
import { Badge } from "../ui/badge";
import { numClass, rowClass, TableFrame, TableHead, tdClass } from "../ui/table";

type Pool = z.infer<typeof pool>;

/** The pools that trade a token, deepest first (GET /v1/tokens/{address}/pools), each linked to its events. */
export function TokenPools({ pools, token, symbol }: { pools: Pool[]; token: string; symbol: string }) {
  return (
    <TableFrame label="Pools">
      <table className="w-full min-w-[640px] text-sm">
        <TableHead
          cells={[
            "Pair",
            "DEX",
            { label: "Liquidity", numeric: true },
            { label: "Fee", numeric: true },
            { label: "Price", numeric: true },
            "Pool",
          ]}
        />
        <tbody>
          {pools.map((p) => (
            <tr key={p.address} className={rowClass} data-pool={p.address}>
              <td className={`${tdClass} whitespace-nowrap font-medium`}>
                {symbol}/{p.pair_token_symbol ?? <Address value={p.pair_token_address} />}
              </td>
              <td className={tdClass}>
                <span className="flex items-center gap-1.5 whitespace-nowrap">
                  {p.dex}
                  {p.is_price_source && (
                    <Badge tone="info" title="The pool the token's price comes from">
                      price
                    </Badge>
                  )}
                </span>
              </td>
              <td className={`${tdClass} ${numClass}`}>{formatUsd(p.liquidity_usd)}</td>
              <td className={`${tdClass} ${numClass}`}>{p.fee_pct}%</td>
              <td className={`${tdClass} ${numClass}`}>{p.price_usd === null ? "—" : formatPrice(p.price_usd)}</td>
              <td className={tdClass}>
                <span className="flex items-center gap-2 whitespace-nowrap">
                  <Address value={p.address} />
                  <Link
                    href={`/events?token_address=${token}&pool_address=${p.address}`}
                    className="text-xs text-indigo-700 hover:underline dark:text-indigo-300"
                  >
                    Events →
                  </Link>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
