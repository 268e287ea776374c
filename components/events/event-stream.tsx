"use client";

import { useEffect, useState } from "react";
import type { Refusal } from "@/lib/api/errors";
import type { EventType } from "@/lib/domain/vocab";
import type { ApiEvent } from "@/lib/queries/events";
import { RequestRefused } from "../fetch-json";
import { type IndexerStatus, staleSummary, useIndexerStatus } from "../freshness";
import { useLiveState } from "../live/live-provider";
import type { Page } from "../types";
import { buttonClass, inputClass, labelClass } from "../ui/button";
import { EmptyState } from "../ui/empty-state";
import { ErrorMessage } from "../ui/error-message";
import { Input } from "../ui/fields";
import { Pagination } from "../ui/pagination";
import { RequestProblem } from "../ui/request-problem";
import { panelClass } from "../ui/surfaces";
import { seedOf, useDashboardQuery } from "../use-dashboard-query";
import { useUrlSearch } from "../use-url-search";
import { EventTable } from "./event-table";
import { EventTypeSelect } from "./event-type-select";
import { streamSearch } from "./stream-search";

const ADDRESS = "^0x[0-9a-fA-F]{40}$";

/** An address filter applies once it is a whole address (or empty), not on every keystroke. */
function AddressFilter({
  name,
  label,
  value,
  onApply,
}: {
  name: string;
  label: string;
  value: string;
  onApply: (v: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft !== value && (draft === "" || new RegExp(ADDRESS).test(draft))) onApply(draft);
  }, [draft, value, onApply]);
  return (
    <div className="min-w-0 flex-1 basis-72">
      <label htmlFor={name} className={labelClass}>
        {label}
      </label>
      <Input
        id={name}
        value={draft}
        onChange={(v) => setDraft(v.trim())}
        pattern={ADDRESS}
        placeholder="0x…"
        spellCheck={false}
        autoComplete="off"
        className={`${inputClass} font-mono`}
      />
    </div>
  );
}

/**
 * The global event stream: filters in the URL, the first page refreshing as blocks are indexed
 * (the live feed). It says "Live" only while the data is current and the feed reaches the tab:
 * when the indexer is down or behind the chain, it says so instead (and keeps following, so the
 * rows catch up when indexing does).
 */
export function EventStream({
  types,
  initial,
  invalid,
}: {
  types: readonly EventType[];
  initial: { search: string; data?: Page<ApiEvent>; refusal?: Refusal; status?: IndexerStatus };
  invalid?: string;
}) {
  const { search, update } = useUrlSearch();
  const [paused, setPaused] = useState(false);
  // The server fell back to the unfiltered list; the address bar follows so the two agree.
  useEffect(() => {
    if (invalid) window.history.replaceState(null, "", window.location.pathname);
  }, [invalid]);
  const params = streamSearch(search);
  const onFirstPage = (params.get("page") ?? "1") === "1";
  const refreshing = onFirstPage && !paused;
  const stale = staleSummary(useIndexerStatus(initial.status));
  const connected = useLiveState() === "live";
  const live = refreshing && !stale && connected;
  const dot = live
    ? "animate-pulse bg-emerald-500 motion-reduce:animate-none"
    : refreshing && stale
      ? "bg-amber-500"
      : "bg-zinc-400";
  const url = `/api/events?${params}`;
  const query = useDashboardQuery<Page<ApiEvent>>(url, {
    initial: seedOf(`/api/events?${initial.search}`, initial),
    live: refreshing ? "market" : undefined,
  });
  // Events of another view under these filters would mislead: a view that needs an account shows only why.
  const list = query.problem instanceof RequestRefused && query.problem.needsAccount ? undefined : query.data;
  const current = query.shownUrl === url;

  return (
    <div className="space-y-4">
      <form
        role="search"
        aria-label="Event filters"
        onSubmit={(e) => e.preventDefault()}
        className={`flex flex-wrap items-end gap-3 p-4 ${panelClass}`}
      >
        <EventTypeSelect
          id="type"
          label="Type"
          types={types}
          value={search.get("type") ?? ""}
          onChange={(type) => update({ type })}
        />
        <AddressFilter
          name="token_address"
          label="Token address"
          value={search.get("token_address") ?? ""}
          onApply={(v) => update({ token_address: v })}
        />
        <AddressFilter
          name="wallet_address"
          label="Wallet address"
          value={search.get("wallet_address") ?? ""}
          onApply={(v) => update({ wallet_address: v })}
        />
        <AddressFilter
          name="pool_address"
          label="Pool address"
          value={search.get("pool_address") ?? ""}
          onApply={(v) => update({ pool_address: v })}
        />
      </form>

      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <p className="flex items-center gap-2" aria-live="polite">
          <span className={`inline-block size-2 rounded-full ${dot}`} aria-hidden="true" />
          {live
            ? "Live: new events appear as blocks are indexed"
            : refreshing && stale
              ? `Not live: ${stale}. Updates resume with indexing`
              : refreshing
                ? "Paused: updates resume when the tab is visible and connected"
                : onFirstPage
                  ? "Paused"
                  : "Live updates run on the first page"}
        </p>
        {onFirstPage && (
          <button
            type="button"
            aria-pressed={paused}
            onClick={() => setPaused((p) => !p)}
            className={buttonClass("secondary")}
          >
            {paused ? "Resume live updates" : "Pause live updates"}
          </button>
        )}
      </div>

      {invalid && <ErrorMessage>The link had an invalid filter ({invalid}); showing all events instead.</ErrorMessage>}
      <RequestProblem problem={query.problem} retryAt={query.retryAt} keeping={list !== undefined} />
      {list && current && list.total === 0 && <EmptyState title="No events match these filters." />}
      {list && list.total > 0 && (
        <>
          <div className={current ? "" : "opacity-60"}>
            <EventTable events={list.data} label="Events" />
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
