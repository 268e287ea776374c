import { type Adjustment, type MissingDimension, moved } from "@/lib/scoring/composite";
import { adjustmentText, MISSING_REASON_TEXT } from "@/lib/scoring/score-labels";
import { ScoreBar } from "./charts/score-bar";

export type BreakdownRow = {
  key: string;
  label: string;
  /** 0..100; a dimension named in `missing` shows as without data, whatever its no-evidence value. */
  value: number;
  /** How the value reads when not a plain score (a win rate as a percent). */
  display?: string;
};

/**
 * A composite score as the sum of its parts: each dimension with the weight it carries (the
 * weights of dimensions without data shared out over the others, and said so), the weighted
 * breakdown, and each adjustment that applies, in words (those that set the score stand out).
 */
export function ScoreBreakdown({
  rows,
  weights,
  missing,
  weighted,
  score,
  adjustments,
  worseWhenHigh,
}: {
  rows: BreakdownRow[];
  weights: Record<string, number>;
  missing: MissingDimension<string>[];
  weighted: number;
  score: number;
  adjustments: Adjustment<string>[];
  worseWhenHigh: boolean;
}) {
  const reasonOf = new Map(missing.map((m) => [m.dimension, MISSING_REASON_TEXT[m.reason]]));
  return (
    <div className="space-y-3">
      {rows.map((r) =>
        reasonOf.has(r.key) ? (
          <div key={r.key} className="text-xs">
            <div className="flex justify-between gap-2">
              <span className="text-zinc-700 dark:text-zinc-300">{r.label}</span>
              <span className="font-medium text-zinc-500 dark:text-zinc-400">not enough data</span>
            </div>
            <p className="text-zinc-500 dark:text-zinc-400">{reasonOf.get(r.key)}; its weight goes to the others.</p>
          </div>
        ) : (
          <ScoreBar
            key={r.key}
            label={r.label}
            value={r.value}
            display={r.display}
            weight={weights[r.key]}
            worseWhenHigh={worseWhenHigh}
          />
        ),
      )}
      <dl className="space-y-1 border-t border-zinc-200 pt-2 text-xs dark:border-zinc-800">
        <div className="flex justify-between gap-2">
          <dt className="text-zinc-600 dark:text-zinc-400">Weighted breakdown</dt>
          <dd className="font-medium tabular-nums">{weighted.toFixed(1)}</dd>
        </div>
        {adjustments.map((a) => (
          <div
            key={a.reason}
            className={
              moved(a, weighted) ? "font-medium text-zinc-800 dark:text-zinc-200" : "text-zinc-500 dark:text-zinc-400"
            }
            data-testid="score-adjustment"
          >
            {adjustmentText(a)}
            {moved(a, weighted) ? "" : " (the breakdown already meets it)"}
          </div>
        ))}
        <div className="flex justify-between gap-2">
          <dt className="text-zinc-600 dark:text-zinc-400">Score</dt>
          <dd className="font-semibold tabular-nums">{score.toFixed(1)}</dd>
        </div>
      </dl>
    </div>
  );
}
