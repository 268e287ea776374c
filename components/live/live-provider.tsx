"use client";

import { type Query, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { LiveMessage } from "@/lib/api/stream/live";
import { type LiveEvent, openLiveChannel } from "./live-channel";
import { type LiveScope, movedBy } from "./scope";

/** Live: the tab is visible and the browser's connection to the feed is open; paused otherwise. */
export type LiveState = "live" | "paused";

type Refresher = { scope: LiveScope; refresh: () => void; at: number };
type Live = { state: LiveState; refreshers: Set<Refresher> };

const LiveContext = createContext<Live>({ state: "paused", refreshers: new Set() });

const liveScopeOf = (q: Query): LiveScope | undefined => q.meta?.live as LiveScope | undefined;

/**
 * Keeps the tab's views current from the live feed (GET /api/live, one connection per browser:
 * live-channel.ts): each message refreshes the views it moved, queries by their `meta.live`
 * scope (useDashboardQuery's `live`) and server-rendered pages through useLiveRefresh. Paused
 * while the tab is hidden or the connection is down; on return, every live view refreshes once
 * if anything was missed meanwhile.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const queries = useQueryClient();
  const [refreshers] = useState(() => new Set<Refresher>());
  const [visible, setVisible] = useState(true);
  const [open, setOpen] = useState(false);
  const live = visible && open;
  const liveRef = useRef(live);
  liveRef.current = live;
  /** Something moved (or may have) while paused. */
  const missed = useRef(false);
  const catchUp = useRef(() => {});

  useEffect(() => {
    const seen = () => setVisible(document.visibilityState === "visible");
    seen();
    document.addEventListener("visibilitychange", seen);
    return () => document.removeEventListener("visibilitychange", seen);
  }, []);

  useEffect(() => {
    const refresh = (moved: (scope: LiveScope, at: number) => boolean) => {
      void queries.invalidateQueries({
        predicate: (q) => {
          const scope = liveScopeOf(q);
          return scope !== undefined && moved(scope, q.state.dataUpdatedAt);
        },
      });
      for (const r of refreshers) {
        if (!moved(r.scope, r.at)) continue;
        r.at = Date.now();
        r.refresh();
      }
    };
    const apply = (m: LiveMessage) => {
      const now = Date.now();
      refresh((scope, at) => movedBy(scope, m, at, now));
    };
    let hellos = 0;
    const onEvent = (e: LiveEvent) => {
      if (e.kind === "connection") {
        if (!e.open) missed.current = true;
        setOpen(e.open);
        return;
      }
      // A second hello is a reconnection: what moved while it was down is unknown.
      if (e.kind === "hello" && hellos++ > 0) missed.current = true;
      if (!liveRef.current) {
        if (e.kind === "moved") missed.current = true;
        return;
      }
      if (e.kind === "moved") apply(e.message);
      else if (e.kind === "ping") refresh((scope) => scope === "status");
    };
    const close = openLiveChannel(onEvent);
    catchUp.current = () => refresh(() => true);
    return close;
  }, [queries, refreshers]);

  useEffect(() => {
    if (!live || !missed.current) return;
    missed.current = false;
    catchUp.current();
  }, [live]);

  const value = useMemo<Live>(() => ({ state: live ? "live" : "paused", refreshers }), [live, refreshers]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/** Whether this tab's views are live or paused. */
export const useLiveState = (): LiveState => useContext(LiveContext).state;

/**
 * Re-renders a server-rendered page (router.refresh: its server components read again, through
 * the shared views' cache, and its client components keep their state) whenever a move touches
 * `scope`. For pages whose figures the server renders: a token's, a wallet's.
 */
export function useLiveRefresh(scope: LiveScope) {
  const { refreshers } = useContext(LiveContext);
  const router = useRouter();
  const key = JSON.stringify(scope);
  useEffect(() => {
    const r: Refresher = {
      scope: JSON.parse(key) as LiveScope,
      refresh: () => startTransition(() => router.refresh()),
      at: Date.now(),
    };
    refreshers.add(r);
    return () => {
      refreshers.delete(r);
    };
  }, [key, refreshers, router]);
}

/** useLiveRefresh as an element, for a server component's page. */
export function LiveRefresh({ scope }: { scope: LiveScope }) {
  useLiveRefresh(scope);
  return null;
}
