"use client";

import { CopyButton } from "../copy-button";
import { buttonClass } from "../ui/button";

/** A new key's secret, shown this once; the server keeps only its hash. */
export function SecretReveal({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  return (
    <div
      role="status"
      className="rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950"
    >
      <p className="font-medium text-emerald-900 dark:text-emerald-100">
        Key “{name}” is ready. Copy it now: it will not be shown again.
      </p>
      <div className="mt-2 flex items-center gap-2">
        <code
          data-testid="new-key-secret"
          className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-sm dark:bg-zinc-900"
        >
          {secret}
        </code>
        <CopyButton value={secret} label="Copy the new API key" className="h-8 min-w-8" />
      </div>
      <button type="button" onClick={onDone} className={buttonClass("secondary", "mt-3")}>
        I have saved it
      </button>
    </div>
  );
}
