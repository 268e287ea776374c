"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { popoverClass } from "../ui/surfaces";

/** The menu's button: a bordered chip with the initial; the disclosure triangle hidden. */
const SUMMARY_CLASS =
  "flex cursor-pointer list-none items-center gap-1.5 rounded-md border border-zinc-300 px-2 py-1 text-sm " +
  "text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800 " +
  "[&::-webkit-details-marker]:hidden";
/** The email's first letter in an indigo disc. */
const INITIAL_CLASS =
  "grid size-6 place-items-center rounded-full bg-indigo-600 text-xs font-semibold uppercase text-white";

/**
 * The signed-in account in the header: one button (the email's first letter, the email itself
 * from a wide screen up) opening a menu with the email and the sign-out actions, so the header
 * keeps its width for the navigation. Closes on a click elsewhere and on Escape.
 */
export function AccountMenu({ email, children }: { email: string; children: ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (e: Event) => {
      const details = menu.current;
      if (!details?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !details.contains(e.target as Node)) details.open = false;
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  return (
    <details ref={menu} className="group relative">
      <summary aria-label={`Account: ${email}`} title={email} className={SUMMARY_CLASS}>
        <span aria-hidden="true" className={INITIAL_CLASS}>
          {email.slice(0, 1)}
        </span>
        <span className="hidden max-w-36 truncate xl:inline">{email}</span>
        <span aria-hidden="true" className="text-xs text-zinc-500 group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className={`${popoverClass} w-64 space-y-2 p-3`}>
        <p className="truncate text-sm text-zinc-600 dark:text-zinc-400" title={email}>
          Signed in as <span className="font-medium text-zinc-900 dark:text-zinc-100">{email}</span>
        </p>
        <div className="flex flex-wrap gap-2">{children}</div>
      </div>
    </details>
  );
}
