"use client";

import type { Refusal } from "@/lib/api/errors";
import type { EventType } from "@/lib/domain/vocab";
import type { ApiEvent } from "@/lib/queries/events";
import { EventTable } from "../events/event-table";
import { EventTypeSelect } from "../events/event-type-select";
import { RequestRefused } from "../fetch-json";
import { humanize } from "../format";
import type { Page } from "../types";
import { EmptyState } from "../ui/empty-state";
import { Pagination } from "../ui/pagination";
import { RequestProblem } from "../ui/request-problem";
import { seedOf, useDashboardQuery } from "../use-dashboard-query";
import { useUrlSearch } from "../use-url-search";
import { walletEventsSearch } from "./wallet-events-search";

/** A wallet's event history, filtered by type and paged through the URL. */
export function WalletEvents({
  wallet,
  types,
  initial,
}: {
  wallet: string;
  types: readonly EventType[];
  initial: { search: string; data?: Page<ApiEvent>; refusal?: Refusal };
}) {
  const { search, update } = useUrlSearch();
  const type = search.get("type") ?? "";
  const params = walletEventsSearch(wallet, type, search.get("page"));
  const url = `/api/events?${params}`;
  const query = useDashboardQuery<Page<ApiEvent>>(url, {
    initial: seedOf(`/api/events?${initial.search}`, initial),
    live: { wallet },
  });
  // Events of another page or type would mislead: a view that needs an account shows only why.
  const list = query.problem instanceof RequestRefused && query.problem.needsAccount ? undefined : query.data;
  const current = query.shownUrl === url;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <EventTypeSelect
          id="event-type"
          label="Event type"
          types={types}
          value={type}
          onChange={(t) => update({ type: t })}
        />
        <span className="text-xs text-zinc-500" aria-live="polite">
          {query.isFetching ? "Updating…" : ""}
        </span>
      </div>
      <RequestProblem problem={query.problem} retryAt={query.retryAt} keeping={list !== undefined} />
      {list && current && list.total === 0 && (
        <EmptyState title={type ? `No ${humanize(type)} events for this wallet.` : "No events for this wallet."} />
      )}
      {list && list.total > 0 && (
        <>
          <div className={current ? "" : "opacity-60"}>
            <EventTable events={list.data} label="Wallet events" wallet={wallet} />
          </div>
          <Pagination
            page={list.page}
            limit={list.limit}
            total={list.total}
            noun="events"
            onPage={(p) => update({ page: String(p) }, { keepPage: true })}
          />
        </>
      )}
    </div>
  );
}
