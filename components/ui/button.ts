/** Button looks, shared by <button> and <Link> so both read as the same control. */
const BASE =
  "inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium transition-colors " +
  "disabled:cursor-not-allowed disabled:opacity-50";

const VARIANTS = {
  primary: "bg-indigo-600 text-white hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400",
  secondary:
    "border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50 " +
    "dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:bg-zinc-800",
  danger:
    "border border-red-300 bg-white text-red-700 hover:bg-red-50 " +
    "dark:border-red-800 dark:bg-zinc-900 dark:text-red-300 dark:hover:bg-red-950",
} as const;

export const buttonClass = (variant: keyof typeof VARIANTS = "primary", extra = "") =>
  `${BASE} ${VARIANTS[variant]} ${extra}`;

export const inputClass =
  "block w-full rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm text-zinc-900 " +
  "placeholder:text-zinc-400 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";

export const labelClass = "mb-1 block text-xs font-medium text-zinc-700 dark:text-zinc-300";
