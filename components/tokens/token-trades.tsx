"use client";

import { useState } from "react";
import { CLASSIFICATIONS, DIRECTIONS } from "@/lib/domain/vocab";
import type { ApiEvent } from "@/lib/queries/events";
import { type TradesFilter, tradesSearch } from "@/lib/queries/trades-search";
import { Address, walletHref } from "../address";
import { formatPrice } from "../charts/candles";
import { formatAmount, formatUsd, humanize } from "../format";
import { useArrivals } from "../live/use-arrivals";
import { RelativeTime } from "../relative-time";
import type { Page } from "../types";
import { Badge } from "../ui/badge";
import { labelClass } from "../ui/button";
import { EmptyState } from "../ui/empty-state";
import { ErrorMessage } from "../ui/error-message";
import { Select } from "../ui/fields";
import { Pagination } from "../ui/pagination";
import { numClass, rowClass, TableFrame, TableHead, tdClass } from "../ui/table";
import { useDashboardQuery } from "../use-dashboard-query";
import { ClassificationBadge } from "../wallet-badges";

function FilterSelect({
  id,
  label,
  value,
  options,
  all,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  all: string;
  onChange: (v: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <Select id={id} value={value} onChange={onChange}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {humanize(o)}
          </option>
        ))}
      </Select>
    </div>
  );
}

const NONE: ApiEvent[] = [];

/** As traders read a trade (DexScreener's order): when, which way, how much in dollars, then the amounts and who. */
const headers = (symbol: string) => [
  "Time",
  "Side",
  { label: "USD", numeric: true },
  { label: symbol, key: "Amount", numeric: true },
  { label: "Paid / got", numeric: true },
  { label: "Price", numeric: true },
  "Wallet",
  "Tx",
];

/**
 * A token's swaps, newest first: the rows of GET /v1/events?token_address=&type=swap, each with
 * its amounts of the token and the quote, its USD, the price after it and the trader with the
 * trader's class; filtered by side and by the trader's class. The server renders the unfiltered
 * first page; new trades arrive as blocks touching the token are indexed (the live feed).
 */
export function TokenTrades({ token, symbol, initial }: { token: string; symbol: string; initial: Page<ApiEvent> }) {
  const [filter, setFilter] = useState<TradesFilter>({ side: "", walletClass: "", page: 1 });
  const url = `/api/events?${tradesSearch(token, filter)}`;
  const query = useDashboardQuery<Page<ApiEvent>>(url, {
    initial: { url: `/api/events?${tradesSearch(token)}`, data: initial },
    live: { token },
  });
  const list = query.data;
  // Trades that were not in the previous list (a new block's) fade in.
  const arrived = useArrivals(list?.data ?? NONE, query.shownUrl);
  const change = (c: Partial<TradesFilter>) => setFilter((f) => ({ ...f, page: 1, ...c }));
  const filtered = filter.side !== "" || filter.walletClass !== "";

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap gap-3">
          <FilterSelect
            id="trades-side"
            label="Side"
            value={filter.side}
            options={DIRECTIONS}
            all="Buys and sells"
            onChange={(side) => change({ side })}
          />
          <FilterSelect
            id="trades-class"
            label="Trader's class"
            value={filter.walletClass}
            options={CLASSIFICATIONS}
            all="Every class"
            onChange={(walletClass) => change({ walletClass })}
          />
        </div>
        <span className="text-xs text-zinc-500" aria-live="polite">
          {query.isFetching ? "Updating…" : ""}
        </span>
      </div>
      {query.error && <ErrorMessage>{query.error.message}</ErrorMessage>}
      {list && list.total === 0 && (
        <EmptyState title={filtered ? "No trades match these filters." : "No trades yet."} />
      )}
      {list && list.total > 0 && (
        <>
          <div className={query.isPlaceholderData ? "opacity-60" : ""}>
            <TableFrame label={`Trades of ${symbol}`}>
              <table className="w-full min-w-[900px] text-sm">
                <TableHead cells={headers(symbol)} />
                <tbody>
                  {list.data.map((e) => (
                    <tr
                      key={e.id}
                      className={`${rowClass} ${arrived.has(e.id) ? "row-arrive" : ""}`}
                      data-id={e.id}
                      data-side={e.direction ?? ""}
                      data-class={e.wallet_classification}
                    >
                      <td className={`${tdClass} whitespace-nowrap`}>
                        <RelativeTime iso={e.timestamp} />
                      </td>
                      <td className={tdClass}>
                        <Badge tone={e.direction === "buy" ? "good" : "bad"}>{e.direction ?? "—"}</Badge>
                      </td>
                      <td className={`${tdClass} ${numClass}`}>{formatUsd(e.amount_usd)}</td>
                      <td className={`${tdClass} ${numClass}`}>{formatAmount(e.token_amount)}</td>
                      <td className={`${tdClass} ${numClass} whitespace-nowrap`}>
                        {e.quote_amount === null ? "—" : `${formatAmount(e.quote_amount)} ${e.quote_symbol ?? ""}`}
                      </td>
                      <td className={`${tdClass} ${numClass}`}>{e.price_usd ? formatPrice(e.price_usd) : "—"}</td>
                      <td className={tdClass}>
                        <span className="flex items-center gap-1.5 whitespace-nowrap">
                          <Address value={e.wallet_address} href={walletHref(e.wallet_address)} />
                          <ClassificationBadge value={e.wallet_classification} />
                        </span>
                      </td>
                      <td className={tdClass}>
                        <Address value={e.tx_hash} chars={6} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
          </div>
          <Pagination
            page={list.page}
            limit={list.limit}
            total={list.total}
            noun="trades"
            onPage={(page) => setFilter((f) => ({ ...f, page }))}
          />
        </>
      )}
    </div>
  );
}
