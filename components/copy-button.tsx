"use client";

import { useState } from "react";

const BUTTON_CLASS =
  "inline-flex h-6 min-w-6 items-center justify-center rounded px-1 text-xs text-zinc-500 hover:bg-zinc-100 " +
  "hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100";

/** Copies a value; the label says what is copied, and the result is announced. */
export function CopyButton({ value, label, className = "" }: { value: string; label: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(value);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <button type="button" onClick={copy} aria-label={label} title={label} className={`${BUTTON_CLASS} ${className}`}>
      {copied ? <CheckIcon /> : <CopyIcon />}
      <span className="sr-only" aria-live="polite">
        {copied ? "Copied" : ""}
      </span>
    </button>
  );
}

const iconProps = {
  width: 14,
  height: 14,
  viewBox: "0 0 16 16",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.5,
} as const;

const CopyIcon = () => (
  <svg {...iconProps} aria-hidden="true">
    <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
    <path d="M3.5 10.5h-.5a1 1 0 0 1-1-1V3a1 1 0 0 1 1-1h6.5a1 1 0 0 1 1 1v.5" />
  </svg>
);

const CheckIcon = () => (
  <svg {...iconProps} aria-hidden="true">
    <path d="M3 8.5l3 3 7-7" />
  </svg>
);
