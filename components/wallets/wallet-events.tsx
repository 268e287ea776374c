"use client";

import type { EventType } from "@/lib/domain/vocab";
import type { ApiEvent } from "@/lib/queries/events";
import { EventTable } from "../events/event-table";
import { EventTypeSelect } from "../events/event-type-select";
import { humanize } from "../format";
import type { Page } from "../types";
import { EmptyState } from "../ui/empty-state";
import { ErrorMessage } from "../ui/error-message";
import { Pagination } from "../ui/pagination";
import { useDashboardQuery } from "../use-dashboard-query";
import { useUrlSearch } from "../use-url-search";
import { walletEventsSearch } from "./wallet-events-search";

/** A wallet's event history, filtered by type and paged through the URL. */
export function WalletEvents({ wallet, types, initial }: { wallet: string; types: readonly EventType[]; initial: { search: string; data: Page<ApiEvent> } }) {
  const { search, update } = useUrlSearch();
  const type = search.get("type") ?? "";
  const params = walletEventsSearch(wallet, type, search.get("page"));
  const query = useDashboardQuery<Page<ApiEvent>>(`/api/events?${params}`, { initial: { url: `/api/events?${initial.search}`, data: initial.data } });
  const list = query.data;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <EventTypeSelect id="event-type" label="Event type" types={types} value={type} onChange={(t) => update({ type: t })} />
        <span className="text-xs text-zinc-500" aria-live="polite">
          {query.isFetching ? "Updating…" : ""}
        </span>
      </div>
      {query.error && <ErrorMessage>{query.error.message}</ErrorMessage>}
      {list && list.total === 0 && <EmptyState title={type ? `No ${humanize(type)} events for this wallet.` : "No events for this wallet."} />}
      {list && list.total > 0 && (
        <>
          <div className={query.isPlaceholderData ? "opacity-60" : ""}>
            <EventTable events={list.data} label="Wallet events" wallet={wallet} />
          </div>
          <Pagination page={list.page} limit={list.limit} total={list.total} noun="events" onPage={(p) => update({ page: String(p) }, { keepPage: true })} />
        </>
      )}
    </div>
  );
}
