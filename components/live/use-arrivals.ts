"use client";

import { useState } from "react";

/**
 * The ids of `items` that were not in the previous list of the same view (`view`: a new page or
 * filter is a new view, none of whose rows arrive): rows a live list received, to fade in. Kept
 * until the list changes again, so a re-render for something else does not cut their fade.
 */
export function useArrivals<T extends { id: string }>(items: readonly T[], view = ""): ReadonlySet<string> {
  const [last, setLast] = useState({ items, view, arrived: new Set<string>() as ReadonlySet<string> });
  if (last.items === items && last.view === view) return last.arrived;
  const before = new Set(last.items.map((i) => i.id));
  const arrived =
    view === last.view ? new Set(items.filter((i) => !before.has(i.id)).map((i) => i.id)) : new Set<string>();
  // Derived from the previous render's list, as React's docs store it: set during render, no effect.
  setLast({ items, view, arrived });
  return arrived;
}
