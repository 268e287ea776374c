import type { ReactNode } from "react";
import { panelClass } from "./surfaces";

export function Stat({
  label,
  value,
  hint,
  className = "",
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  className?: string;
}) {
  return (
    <div className={`min-w-0 ${panelClass} p-3 ${className}`}>
      <dt className="text-xs text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="mt-1 truncate text-lg font-semibold tabular-nums">{value}</dd>
      {hint && <dd className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{hint}</dd>}
    </div>
  );
}
