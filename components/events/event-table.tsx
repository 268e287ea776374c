"use client";

import Link from "next/link";
import type { ApiEvent } from "@/lib/queries/events";
import { Address, walletHref } from "../address";
import { formatUsd, humanize } from "../format";
import { useArrivals } from "../live/use-arrivals";
import { RelativeTime } from "../relative-time";
import { Badge, type Tone } from "../ui/badge";
import { numClass, rowClass, TableFrame, TableHead, tdClass } from "../ui/table";

const TYPE_TONE: Record<string, Tone> = {
  swap: "info",
  liquidity_add: "good",
  liquidity_remove: "bad",
  transfer: "neutral",
};

/**
 * Events newest first. Rows that were not in the previous list fade in; sizes never change.
 * Seen from one wallet (`wallet`), the wallet column gives way to the side it was on.
 */
export function EventTable({ events, label, wallet }: { events: ApiEvent[]; label: string; wallet?: string }) {
  const arrived = useArrivals(events);

  return (
    <TableFrame label={label}>
      <table className="w-full min-w-[760px] table-fixed text-sm">
        <TableHead
          cells={[
            { label: "Time", className: "w-28" },
            { label: "Type", className: "w-36" },
            { label: "Token", className: "w-28" },
            { label: wallet ? "Side" : "Wallet", className: "w-44" },
            { label: "Amount", numeric: true, className: "w-28" },
            { label: "Tx", className: "w-40" },
          ]}
        />
        <tbody>
          {events.map((e) => (
            <tr key={e.id} className={`${rowClass} ${arrived.has(e.id) ? "row-arrive" : ""}`}>
              <td className={tdClass}>
                <RelativeTime iso={e.timestamp} />
              </td>
              <td className={tdClass}>
                <span className="flex gap-1">
                  <Badge tone={TYPE_TONE[e.type]}>{humanize(e.type)}</Badge>
                  {e.direction && <Badge tone={e.direction === "buy" ? "good" : "bad"}>{e.direction}</Badge>}
                </span>
              </td>
              <td className={`${tdClass} truncate`}>
                <Link
                  href={`/tokens/${e.token_address}`}
                  className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                >
                  {e.token_symbol || "?"}
                </Link>
              </td>
              <td className={tdClass}>
                {wallet ? (
                  <WalletSide event={e} wallet={wallet} />
                ) : (
                  <Address value={e.wallet_address} href={walletHref(e.wallet_address)} />
                )}
              </td>
              <td className={`${tdClass} ${numClass}`}>{formatUsd(e.amount_usd)}</td>
              <td className={tdClass}>
                <Address value={e.tx_hash} chars={6} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

/**
 * A swap is a buy or a sell; a transfer is in a wallet's history as sender or receiver, and the other side links on.
 */
function WalletSide({ event, wallet }: { event: ApiEvent; wallet: string }) {
  if (event.type === "swap" && event.direction) {
    return (
      <Badge tone={event.direction === "buy" ? "good" : "bad"}>{event.direction === "buy" ? "bought" : "sold"}</Badge>
    );
  }
  if (event.type !== "transfer") return <span className="text-zinc-400">—</span>;
  const incoming = event.to_address === wallet;
  const other = incoming ? event.wallet_address : event.to_address;
  return (
    <span className="flex items-center gap-1">
      <Badge tone={incoming ? "good" : "neutral"}>{incoming ? "in from" : "out to"}</Badge>
      {other && <Address value={other} href={walletHref(other)} />}
    </span>
  );
}
