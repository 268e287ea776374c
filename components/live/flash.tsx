"use client";

import { type ReactNode, useLayoutEffect, useRef } from "react";

/**
 * Its children, briefly highlighted whenever the text they show changes after the first render
 * (a live figure that moved; a change too small to show is none): a background that fades,
 * never a change of size, and no fade where the visitor asks for reduced motion (globals.css,
 * .live-flash). `data-flashes` counts the changes shown.
 */
export function Flash({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  const shown = useRef<string | null>(null);
  const flashes = useRef(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const text = el.textContent ?? "";
    if (shown.current !== null && shown.current !== text) {
      // Restarts the animation when the figure moves again before it ended.
      el.classList.remove("live-flash");
      void el.offsetWidth;
      el.classList.add("live-flash");
      el.dataset.flashes = String(++flashes.current);
    }
    shown.current = text;
  });
  return <span ref={ref}>{children}</span>;
}
