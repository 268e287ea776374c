"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { Refusal } from "@/lib/api/errors";
import { isSharedView, routeUrl } from "@/lib/queries/shared-views";
import { fetchJson, RequestRefused } from "./fetch-json";
import type { LiveScope } from "./live/scope";

/** What the server rendered a view with: its answer, or what it was refused (lib/auth/market-access.ts, pageView). */
export type Seed<T> =
  | { url: string; data: T; refusal?: undefined }
  | { url: string; data?: undefined; refusal: Refusal };
type Answer<T> = { url: string; data: T };
type Options<T> = { initial?: Seed<T>; live?: LiveScope; enabled?: boolean };

/** The seed of `url` from what a page's server read (its data, or its refusal). */
export const seedOf = <T>(url: string, view: { data?: T; refusal?: Refusal }): Seed<T> | undefined =>
  view.data !== undefined ? { url, data: view.data } : view.refusal && { url, refusal: view.refusal };

/**
 * A dashboard JSON route as a query: the server-rendered answer seeds it (no request on load),
 * the previous answer stays on screen while a new one loads (no layout jump), and `live`
 * refreshes it when the live feed says its scope moved (components/live: pushed, not polled;
 * only a shared view, the same answer for every visitor and free: an account's view would
 * count a request against its plan at every block). A failed request never takes away what was shown: `data` stays
 * the last answer (`shownUrl` says of which URL) and `problem` says why the new one did not come;
 * past a rate limit the query asks again at `retryAt` (Retry-After). A refusal the server rendered
 * the page with is the query's error at once, without a request.
 */
export function useDashboardQuery<T>(url: string, opts: Options<T> = {}) {
  const seed = opts.initial?.url === url ? opts.initial : undefined;
  const seededRefusal = useRef(seed?.refusal && { url, refusal: seed.refusal });
  const query = useQuery({
    queryKey: [url],
    queryFn: () => {
      const seeded = seededRefusal.current;
      if (seeded?.url === url) {
        seededRefusal.current = undefined;
        throw RequestRefused.of(seeded.refusal);
      }
      return fetchJson<T>(url);
    },
    initialData: seed?.data,
    initialDataUpdatedAt: seed?.data === undefined ? undefined : Date.now(),
    placeholderData: keepPreviousData,
    meta: opts.live && isSharedView(routeUrl(url)) ? { live: opts.live } : undefined,
    enabled: opts.enabled ?? true,
  });

  const lastAnswer = useRef<Answer<T> | undefined>(seed?.data === undefined ? undefined : { url, data: seed.data });
  const answered = query.data !== undefined && !query.isPlaceholderData;
  useEffect(() => {
    if (answered && query.data !== undefined) lastAnswer.current = { url, data: query.data };
  }, [answered, url, query.data]);

  const problem = query.error ?? (query.isPending && seed?.refusal ? RequestRefused.of(seed.refusal) : null);
  const limited = problem instanceof RequestRefused && problem.rateLimited ? problem : null;
  const retryAt = limited ? (query.errorUpdatedAt || Date.now()) + (limited.retryAfter ?? 1) * 1000 : null;
  const { refetch } = query;
  useEffect(() => {
    if (retryAt === null) return;
    const timer = setTimeout(() => refetch(), Math.max(0, retryAt - Date.now()));
    return () => clearTimeout(timer);
  }, [retryAt, refetch]);

  const kept = answered ? undefined : lastAnswer.current;
  return {
    ...query,
    data: query.data ?? (query.isError ? kept?.data : undefined),
    /** The URL whose answer `data` is; another than `url` while a new one loads or failed. */
    shownUrl: answered ? url : kept?.url,
    problem,
    retryAt,
  };
}
