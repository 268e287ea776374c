"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import { fetchJson } from "../fetch-json";
import type { Page } from "../types";
import { inputClass } from "../ui/button";
import { Input } from "../ui/fields";
import { popoverClass } from "../ui/surfaces";
import { useDebounced } from "../use-debounced";
import { HitFigures, HitName, hitHref, type SearchHit } from "./search-hit";

/** A hit of the list; the one the arrow keys select is highlighted. */
const HIT_CLASS =
  "cursor-pointer space-y-0.5 px-3 py-2 text-sm aria-selected:bg-indigo-50 hover:bg-zinc-50 " +
  "dark:aria-selected:bg-indigo-950 dark:hover:bg-zinc-800";

const SUGGESTIONS = 8;
const TYPING_DELAY_MS = 250;

/**
 * The header's search: suggests tokens (by symbol, name or address) and wallets (by address) as
 * the visitor types, from GET /v1/search; arrows and Enter pick one, Enter alone opens the
 * results page (/search), whose query the box keeps.
 */
export function SearchBox() {
  const router = useRouter();
  const path = usePathname();
  const params = useSearchParams();
  const shown = path === "/search" ? (params.get("q") ?? "") : "";
  const [text, setText] = useState(shown);
  // A new results page shows its query; an effect would also run at mount and drop what was
  // typed before the page hydrated.
  const [shownBefore, setShownBefore] = useState(shown);
  if (shown !== shownBefore) {
    setShownBefore(shown);
    setText(shown);
  }
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const q = useDebounced(text.trim(), TYPING_DELAY_MS);
  const listId = useId();
  const suggestions = useQuery({
    queryKey: ["search-suggestions", q],
    queryFn: () => fetchJson<Page<SearchHit>>(`/api/search?${new URLSearchParams({ q, limit: String(SUGGESTIONS) })}`),
    enabled: open && q.length > 0,
    staleTime: 30_000,
    retry: false,
  });
  const hits = (q && suggestions.data?.data) || [];
  const expanded = open && q.length > 0 && (hits.length > 0 || suggestions.isSuccess);

  const go = (href: string) => {
    setOpen(false);
    router.push(href);
  };

  return (
    <form
      action="/search"
      role="search"
      aria-label="Tokens and wallets"
      className="relative order-last w-full sm:order-none sm:w-48 xl:w-52"
      onSubmit={(e) => {
        if (!text.trim()) return e.preventDefault();
        if (active >= 0 && hits[active]) {
          e.preventDefault();
          go(hitHref(hits[active]));
        } else setOpen(false);
      }}
    >
      <Input
        type="search"
        name="q"
        required
        maxLength={100}
        role="combobox"
        aria-label="Search tokens and wallets"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        placeholder="Symbol, name or 0x address"
        value={text}
        onChange={(typed) => {
          setText(typed);
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setOpen(false);
          if (!expanded || !hits.length) return;
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            // -1 is the typed text: the arrows cycle through it and the suggestions.
            const down = e.key === "ArrowDown";
            setActive((a) => (down ? (a + 1 < hits.length ? a + 1 : -1) : a > -1 ? a - 1 : hits.length - 1));
          }
        }}
        className={`${inputClass} w-full`}
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        hidden={!expanded}
        className={`${popoverClass} max-h-[70vh] w-full min-w-72 overflow-y-auto py-1 sm:w-96`}
      >
        {hits.map((hit, i) => (
          <div
            key={`${hit.type}-${hit.address}`}
            id={`${listId}-${i}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            // Before the input's blur closes the list.
            onMouseDown={(e) => {
              e.preventDefault();
              go(hitHref(hit));
            }}
            className={HIT_CLASS}
          >
            <span className="block truncate font-medium text-indigo-700 dark:text-indigo-300">
              <HitName hit={hit} />
            </span>
            <HitFigures hit={hit} flags={false} />
          </div>
        ))}
        {hits.length === 0 && <p className="px-3 py-2 text-sm text-zinc-500">Nothing starts with “{q}”.</p>}
      </div>
    </form>
  );
}
