/** One 0..100 dimension as a labelled bar; `worseWhenHigh` picks the colour direction. */
export function ScoreBar({
  label,
  value,
  weight,
  worseWhenHigh,
  display,
}: {
  label: string;
  value: number;
  weight?: number;
  worseWhenHigh: boolean;
  display?: string;
}) {
  const bad = worseWhenHigh ? value : 100 - value;
  const color = bad >= 75 ? "bg-red-500" : bad >= 50 ? "bg-orange-500" : bad >= 25 ? "bg-amber-400" : "bg-emerald-500";
  return (
    <div>
      <div className="mb-1 flex justify-between gap-2 text-xs">
        <span className="text-zinc-700 dark:text-zinc-300">
          {label}
          {weight !== undefined && (
            <span className="text-zinc-500 dark:text-zinc-400"> · weight {Math.round(weight * 100)}%</span>
          )}
        </span>
        <span className="font-medium tabular-nums">{display ?? Math.round(value)}</span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(value)}
      >
        <div className={`h-full rounded-full ${color}`} style={{ width: `${Math.max(2, Math.min(100, value))}%` }} />
      </div>
    </div>
  );
}
