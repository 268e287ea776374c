"use client";

import { buttonClass } from "@/components/ui/button";

/** Any page's failure: what happened in plain words, the server log id, and a way to retry. */
export default function PageError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  return (
    <div
      role="alert"
      className="mx-auto max-w-lg rounded-lg border border-red-300 bg-red-50 p-6 dark:border-red-800 dark:bg-red-950"
    >
      <h1 className="text-lg font-semibold text-red-900 dark:text-red-100">This page could not be loaded</h1>
      <p className="mt-1 text-sm text-red-800 dark:text-red-200">
        The data service did not answer in time or failed. Retrying usually helps; if it keeps failing, check that the
        database is up.
      </p>
      {digest && <p className="mt-2 font-mono text-xs text-red-700 dark:text-red-300">Error id {digest}</p>}
      <button type="button" onClick={() => retry()} className={buttonClass("primary", "mt-4")}>
        Try again
      </button>
    </div>
  );
}
