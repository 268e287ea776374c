import { formatInteger } from "../format";
import { buttonClass } from "./button";

export function Pagination({
  page,
  limit,
  total,
  noun,
  onPage,
}: {
  page: number;
  limit: number;
  total: number;
  noun: string;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <p className="text-zinc-600 dark:text-zinc-400" aria-live="polite">
        {formatInteger(total)} {noun} · page {formatInteger(page)} of {formatInteger(pages)}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          ← Previous
        </button>
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          Next →
        </button>
      </div>
    </nav>
  );
}
