/** The boxes that recur across pages, each look written once; the caller adds padding and layout. */

/** A white bordered panel (zinc in dark mode). */
export const panelClass = "rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900";

/** A menu or list that drops down below its control, at its right edge. */
export const popoverClass =
  "absolute right-0 z-40 mt-1 rounded-lg border border-zinc-200 bg-white shadow-lg " +
  "dark:border-zinc-700 dark:bg-zinc-900";

/** A notice that needs attention (amber). */
export const warningClass =
  "rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 " +
  "dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200";

/** A sunken box that shows what an alert draft would match (zinc, a little darker than the page). */
export const previewBoxClass =
  "min-h-28 rounded-md border border-zinc-200 bg-zinc-50 p-3 text-sm dark:border-zinc-800 dark:bg-zinc-950";
