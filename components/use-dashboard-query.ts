"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";

/**
 * A dashboard JSON route as a query: the server-rendered answer seeds it (no request on load),
 * the previous answer stays on screen while a new one loads (no layout jump), and `liveMs`
 * refreshes it on an interval.
 */
export function useDashboardQuery<T>(url: string, opts: { initial?: { url: string; data: T }; liveMs?: number | false; enabled?: boolean } = {}) {
  const seeded = opts.initial && opts.initial.url === url;
  return useQuery({
    queryKey: [url],
    queryFn: () => fetchJson<T>(url),
    initialData: seeded ? opts.initial!.data : undefined,
    initialDataUpdatedAt: seeded ? Date.now() : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: opts.liveMs ?? false,
    enabled: opts.enabled ?? true,
  });
}
