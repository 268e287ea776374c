import { RISK_LEVELS } from "@/lib/domain/vocab";
import { RISK_LEVEL_UPPER_BOUNDS } from "@/lib/scoring/weights";
import { RISK_TONE } from "../risk";
import { Badge } from "../ui/badge";

/** The score bands, from the one table of them (RISK_LEVEL_UPPER_BOUNDS): "low 0–24", …, "critical 75–100". */
const BANDS = RISK_LEVELS.map((level, i) => {
  const from = i === 0 ? 0 : RISK_LEVEL_UPPER_BOUNDS[i - 1][1];
  const below = RISK_LEVEL_UPPER_BOUNDS[i]?.[1];
  return { level, range: below === undefined ? `${from}–100` : `${from}–${below - 1}` };
});

/** What the Risk column's numbers mean. */
export function RiskLegend() {
  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400"
      data-testid="risk-legend"
    >
      <span>Risk score, 0 to 100, higher is riskier:</span>
      {BANDS.map((b) => (
        <span key={b.level} className="inline-flex items-center gap-1">
          <Badge tone={RISK_TONE[b.level]}>{b.range}</Badge> {b.level}
        </span>
      ))}
      <span>Flags name the patterns behind a score; hover one for what it means.</span>
    </div>
  );
}
