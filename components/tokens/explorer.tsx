"use client";

import { useEffect, useRef, useState } from "react";
import type { Refusal } from "@/lib/api/errors";
import { TOKEN_SORT_ORDERS, TOKEN_SORTS, type TokenSort } from "@/lib/domain/vocab";
import type { Token } from "@/lib/queries/tokens";
import { CopyButton } from "../copy-button";
import { RequestRefused } from "../fetch-json";
import type { Page } from "../types";
import { buttonClass, labelClass } from "../ui/button";
import { EmptyState } from "../ui/empty-state";
import { ErrorMessage } from "../ui/error-message";
import { Select } from "../ui/fields";
import { Pagination } from "../ui/pagination";
import { RequestProblem } from "../ui/request-problem";
import { seedOf, useDashboardQuery } from "../use-dashboard-query";
import { useUrlSearch } from "../use-url-search";
import type { FilterField } from "./filter-fields";
import { type FilterDraft, FilterInputs } from "./filter-inputs";
import { draftProblems } from "./filter-validation";
import { RiskLegend } from "./risk-legend";
import { TokenTable } from "./token-table";
import { TRENDING } from "./trending";

const PAGE_SIZES = ["10", "25", "50", "100", "200"];
const TYPING_DELAY_MS = 400;

/** The filter conditions currently in the URL, as the inputs show them. */
const draftOf = (search: URLSearchParams, fields: FilterField[]): FilterDraft =>
  Object.fromEntries([...fields.map((f) => f.name), "exclude_flags"].map((n) => [n, search.get(n) ?? ""]));

/**
 * The token screener: GET /v1/tokens's sorts (every one the API has, on the select and on the
 * column headers) and filters, kept in the URL. A typed value the API would refuse stays out of
 * the URL, and its field says why, so the table keeps showing the last valid answer.
 * `fields` come from the server: the API's declaration, not a copy of it.
 */
export function TokenExplorer({
  initial,
  fields,
  invalid,
}: {
  initial: { search: string; data?: Page<Token>; refusal?: Refusal };
  fields: FilterField[];
  invalid?: string;
}) {
  const { search, update } = useUrlSearch();
  // The server fell back to the unfiltered list; the address bar follows so the two agree.
  useEffect(() => {
    if (invalid) window.history.replaceState(null, "", window.location.pathname);
  }, [invalid]);
  const qs = search.toString();
  const url = `/api/tokens?${qs}`;
  const query = useDashboardQuery<Page<Token>>(url, {
    initial: seedOf(`/api/tokens?${initial.search}`, initial),
    live: "market",
  });
  // Rows of another view under these filters would mislead: a view that needs an account shows only why.
  const list = query.problem instanceof RequestRefused && query.problem.needsAccount ? undefined : query.data;
  const current = query.shownUrl === url;

  // Typing edits a draft; the URL (and so the query) follows once typing pauses.
  const [draft, setDraft] = useState(() => draftOf(search, fields));
  const lastSearch = useRef(search);
  useEffect(() => {
    const before = lastSearch.current;
    lastSearch.current = search;
    setDraft((typed) => {
      const next = draftOf(search, fields);
      // Keep what was typed into other fields and not yet taken into the URL.
      for (const [name, value] of Object.entries(typed)) if (value !== (before.get(name) ?? "")) next[name] = value;
      return next;
    });
  }, [search, fields]);
  const problems = draftProblems(draft, fields);
  useEffect(() => {
    const refused = draftProblems(draft, fields);
    const pending = Object.entries(draft).filter(
      ([name, value]) => (search.get(name) ?? "") !== value && !refused[name],
    );
    if (!pending.length) return;
    const timer = setTimeout(() => update(Object.fromEntries(pending)), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, search, update, fields]);

  const sort = (search.get("sort") ?? "trending") as TokenSort;
  const hasFilters = Object.values(draftOf(search, fields)).some(Boolean);

  return (
    <div className="space-y-4">
      <form
        role="search"
        aria-label="Token filters"
        onSubmit={(e) => {
          e.preventDefault();
          if (!Object.keys(problems).length) update(draft);
        }}
        className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
      >
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="sort" className={labelClass}>
              Sort by
            </label>
            <Select
              id="sort"
              value={sort}
              onChange={(s) => update({ sort: s })}
              title={TOKEN_SORT_ORDERS[sort]?.description}
            >
              {TOKEN_SORTS.map((s) => (
                <option key={s} value={s} title={TOKEN_SORT_ORDERS[s].description}>
                  {TOKEN_SORT_ORDERS[s].label}
                </option>
              ))}
            </Select>
            {sort === "trending" && (
              <p className="mt-1 max-w-64 text-xs text-zinc-500 dark:text-zinc-400">{TRENDING}</p>
            )}
          </div>
          <div>
            <label htmlFor="limit" className={labelClass}>
              Rows per page
            </label>
            <Select id="limit" value={search.get("limit") ?? "50"} onChange={(limit) => update({ limit })}>
              {PAGE_SIZES.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </Select>
          </div>
          <div className="ml-auto flex gap-2">
            <button type="submit" className={buttonClass("primary")}>
              Apply
            </button>
            <button
              type="button"
              className={buttonClass("secondary")}
              disabled={!hasFilters}
              onClick={() => update(Object.fromEntries(Object.keys(draft).map((n) => [n, undefined])))}
            >
              Clear filters
            </button>
          </div>
        </div>
        <FilterInputs
          fields={fields}
          values={draft}
          problems={problems}
          onChange={(name, value) => setDraft((d) => ({ ...d, [name]: value }))}
          idPrefix="filter"
        />
      </form>

      {invalid && <ErrorMessage>The link had an invalid filter ({invalid}); showing all tokens instead.</ErrorMessage>}
      <RequestProblem problem={query.problem} retryAt={query.retryAt} keeping={list !== undefined} />

      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        <span className="inline-flex min-w-0 items-center gap-1 font-mono break-all">
          GET /v1/tokens{qs ? `?${qs}` : ""}
          <CopyButton value={`/v1/tokens${qs ? `?${qs}` : ""}`} label="Copy the equivalent API request" />
        </span>
        <span aria-live="polite">{query.isFetching ? "Updating…" : ""}</span>
      </div>

      {list && list.total > 0 && (
        <div className={current ? "transition-opacity" : "opacity-60 transition-opacity"}>
          <TokenTable tokens={list.data} label="Tokens" sort={sort} onSort={(s) => update({ sort: s })} />
        </div>
      )}
      <RiskLegend />
      {list && current && list.total === 0 && (
        <EmptyState title="No token matches these filters.">Loosen a condition or clear the filters.</EmptyState>
      )}
      {list && list.total > 0 && (
        <Pagination
          page={list.page}
          limit={list.limit}
          total={list.total}
          noun="tokens"
          onPage={(p) => update({ page: String(p) }, { keepPage: true })}
        />
      )}
    </div>
  );
}
