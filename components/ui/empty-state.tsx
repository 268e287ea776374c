import type { ReactNode } from "react";

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 p-6 text-center dark:border-zinc-700">
      <p className="font-medium">{title}</p>
      {children && <div className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{children}</div>}
    </div>
  );
}
