"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";

/** A link of the bar; the current page's reads as chosen. */
const LINK_CLASS =
  "block whitespace-nowrap rounded-md px-2.5 py-1.5 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 " +
  "aria-[current=page]:bg-zinc-100 aria-[current=page]:font-medium aria-[current=page]:text-zinc-900 " +
  "dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100 " +
  "dark:aria-[current=page]:bg-zinc-800 dark:aria-[current=page]:text-zinc-100";

const LINKS = [
  { href: "/", label: "Market" },
  { href: "/tokens", label: "Tokens" },
  { href: "/events", label: "Events" },
  { href: "/alerts", label: "Alerts" },
  { href: "/keys", label: "API keys" },
  { href: "/plan", label: "Plan & usage" },
  { href: "/docs", label: "API reference" },
];

const isCurrent = (path: string, href: string) =>
  href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`);

/** Fades over an edge the links run past: the list scrolls that way. */
const FADE = {
  none: "",
  right: "[mask-image:linear-gradient(to_right,black_calc(100%-2.5rem),transparent)]",
  left: "[mask-image:linear-gradient(to_left,black_calc(100%-2.5rem),transparent)]",
  both: "[mask-image:linear-gradient(to_right,transparent,black_2.5rem,black_calc(100%-2.5rem),transparent)]",
};

/**
 * The main navigation. Where it is narrower than its links (a phone) it scrolls sideways, and
 * says so: the edge it runs past fades and an arrow points on; the current page's link is
 * scrolled into view.
 */
export function NavLinks() {
  const path = usePathname();
  const list = useRef<HTMLUListElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  const measure = useCallback(() => {
    const ul = list.current;
    if (!ul) return;
    setMore({ left: ul.scrollLeft > 1, right: ul.scrollLeft + ul.clientWidth < ul.scrollWidth - 1 });
  }, []);
  useEffect(() => {
    const ul = list.current;
    if (!ul) return;
    ul.querySelector<HTMLElement>("[aria-current=page]")?.scrollIntoView({ block: "nearest", inline: "nearest" });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(ul);
    return () => observer.disconnect();
  }, [measure]);
  const fade = more.left && more.right ? FADE.both : more.right ? FADE.right : more.left ? FADE.left : FADE.none;
  return (
    <div className="relative">
      <ul
        ref={list}
        onScroll={measure}
        className={`flex gap-1 overflow-x-auto text-sm [scrollbar-width:none] ${fade}`}
        data-scrolls={more.right ? "right" : undefined}
      >
        {LINKS.map((l) => (
          <li key={l.href}>
            <Link href={l.href} aria-current={isCurrent(path, l.href) ? "page" : undefined} className={LINK_CLASS}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
      {more.right && (
        <span
          aria-hidden="true"
          data-testid="nav-scroll-hint"
          className="pointer-events-none absolute inset-y-0 right-0 flex items-center text-zinc-500 dark:text-zinc-400"
        >
          ›
        </span>
      )}
    </div>
  );
}
