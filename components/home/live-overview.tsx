"use client";

import Link from "next/link";
import type { ApiEvent } from "@/lib/queries/events";
import { OVERVIEW_URLS } from "@/lib/queries/shared-views";
import type { Token } from "@/lib/queries/tokens";
import { EventTable } from "../events/event-table";
import { formatAge, formatUsd } from "../format";
import { staleSummary, useIndexerStatus } from "../freshness";
import { TRENDING } from "../tokens/trending";
import type { Page } from "../types";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { useDashboardQuery } from "../use-dashboard-query";
import { type IndexerStatus, IndexerStatusBar } from "./indexer-status";
import { TokenMiniList } from "./token-mini-list";

export type Overview = { trending: Page<Token>; newest: Page<Token>; events: Page<ApiEvent>; status: IndexerStatus };

const moreLink = (href: string, text: string) => (
  <Link href={href} className="text-xs text-indigo-700 hover:underline dark:text-indigo-300">
    {text}
  </Link>
);

/** The market at a glance, refreshed from the dashboard's JSON routes as blocks are indexed. */
export function LiveOverview({ initial }: { initial: Overview }) {
  const seed = <K extends keyof Overview>(key: K) => ({
    initial: { url: OVERVIEW_URLS[key], data: initial[key] },
    live: "market" as const,
  });
  const status = useIndexerStatus(initial.status) ?? initial.status;
  const stale = staleSummary(status);
  const trending = useDashboardQuery(OVERVIEW_URLS.trending, seed("trending")).data ?? initial.trending;
  const newest = useDashboardQuery(OVERVIEW_URLS.newest, seed("newest")).data ?? initial.newest;
  const events = useDashboardQuery(OVERVIEW_URLS.events, seed("events")).data ?? initial.events;

  return (
    <div className="space-y-4">
      <IndexerStatusBar status={status} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title={<span title={TRENDING}>Trending</span>} action={moreLink("/tokens?sort=trending", "All tokens →")}>
          <TokenMiniList
            tokens={trending.data}
            label="Trending tokens"
            metric={(t) => `${formatUsd(t.volume_24h_usd)} vol`}
          />
        </Card>
        <Card title="Newest launches" action={moreLink("/tokens?sort=newest", "All launches →")}>
          <TokenMiniList
            tokens={newest.data}
            label="Newest launches"
            metric={(t) => `${formatAge(t.age_hours)} · ${formatUsd(t.liquidity_usd)} liq`}
          />
        </Card>
      </div>
      <Card title={stale ? "Recent events (not live)" : "Recent events"} action={moreLink("/events", "Event stream →")}>
        {stale && (
          <p className="mb-2 text-sm text-amber-800 dark:text-amber-300">
            Not live: {stale}. These are the newest events indexed.
          </p>
        )}
        {events.data.length ? (
          <EventTable events={events.data} label="Recent events" />
        ) : (
          <EmptyState title="No events indexed yet." />
        )}
      </Card>
    </div>
  );
}
