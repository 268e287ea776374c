"use client";

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";

/**
 * The page's query string as its state: reading it, and changing it with a history entry but
 * without a server round trip (the page's queries refetch on their own).
 */
export function useUrlSearch() {
  const search = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string | undefined>, { keepPage = false } = {}) => {
      const next = new URLSearchParams(search);
      for (const [name, value] of Object.entries(changes)) {
        if (value === undefined || value === "") next.delete(name);
        else next.set(name, value);
      }
      // A new filter starts from the first page.
      if (!keepPage && !("page" in changes)) next.delete("page");
      const qs = next.toString();
      // The same query twice (a choice reported again) is one history entry, not two.
      if (qs === window.location.search.slice(1)) return;
      window.history.pushState(null, "", qs ? `?${qs}` : window.location.pathname);
    },
    [search],
  );
  return { search, update };
}
