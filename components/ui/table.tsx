import type { ReactNode } from "react";
import { panelClass } from "./surfaces";

/**
 * Scrolls sideways on a phone instead of squeezing columns; `maxHeight` caps long lists. Relative,
 * so absolutely positioned cells' contents (screen-reader text) are clipped by it instead of
 * widening the page.
 */
export function TableFrame({
  children,
  label,
  maxHeight = false,
}: {
  children: ReactNode;
  label: string;
  maxHeight?: boolean;
}) {
  return (
    <div
      className={`relative overflow-x-auto ${panelClass} ${maxHeight ? "max-h-[28rem] overflow-y-auto" : ""}`}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </div>
  );
}

export const thClass =
  "px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400";
export const tdClass = "h-11 px-3 py-1.5 align-middle";
export const numClass = "text-right tabular-nums";
export const rowClass = "border-t border-zinc-100 dark:border-zinc-800";

/** A header cell: `numeric` right-aligns a column of figures; `srOnly` names a column of buttons for screen readers. */
export type HeadCell = { label: ReactNode; key?: string; numeric?: boolean; srOnly?: boolean; className?: string };

/** Every table's header row. `sticky` keeps it in view while a capped list scrolls under it. */
export function TableHead({ cells, sticky = false }: { cells: (string | HeadCell)[]; sticky?: boolean }) {
  return (
    <thead className={sticky ? "sticky top-0 bg-white dark:bg-zinc-900" : undefined}>
      <tr>
        {cells.map((c, i) => {
          const cell = typeof c === "string" ? { label: c } : c;
          const className = [thClass, cell.numeric ? numClass : "", cell.className ?? ""].join(" ").trim();
          return (
            <th key={cell.key ?? (typeof cell.label === "string" ? cell.label : i)} scope="col" className={className}>
              {cell.srOnly ? <span className="sr-only">{cell.label}</span> : cell.label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
