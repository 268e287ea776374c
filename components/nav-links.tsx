"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Market" },
  { href: "/tokens", label: "Tokens" },
  { href: "/events", label: "Events" },
  { href: "/alerts", label: "Alerts" },
  { href: "/keys", label: "API keys" },
  { href: "/plan", label: "Plan & usage" },
  { href: "/docs", label: "API reference" },
];

const isCurrent = (path: string, href: string) => (href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`));

export function NavLinks() {
  const path = usePathname();
  return (
    <ul className="flex gap-1 overflow-x-auto text-sm">
      {LINKS.map((l) => (
        <li key={l.href}>
          <Link
            href={l.href}
            aria-current={isCurrent(path, l.href) ? "page" : undefined}
            className="block whitespace-nowrap rounded-md px-2.5 py-1.5 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 aria-[current=page]:bg-zinc-100 aria-[current=page]:font-medium aria-[current=page]:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100 dark:aria-[current=page]:bg-zinc-800 dark:aria-[current=page]:text-zinc-100"
          >
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
