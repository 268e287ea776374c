import type { RiskLevel } from "@/lib/domain/vocab";
import { RISK_LEVEL_UPPER_BOUNDS } from "@/lib/scoring/weights";
import { RISK_COLOR } from "../risk";

const R = 80;
const CX = 100;
const CY = 95;

/** A point on the half circle: 0 at the left end, 100 at the right. */
const at = (score: number, r = R) => {
  const a = Math.PI * (1 - score / 100);
  return [CX + r * Math.cos(a), CY - r * Math.sin(a)] as const;
};

const arc = (from: number, to: number) => {
  const [x1, y1] = at(from);
  const [x2, y2] = at(to);
  return `M${x1},${y1} A${R},${R} 0 0 1 ${x2},${y2}`;
};

/** The composite risk score on a half dial coloured by the risk-level bands. */
export function RiskGauge({ score, level }: { score: number; level: RiskLevel }) {
  const bands: [RiskLevel, number, number][] = [];
  let start = 0;
  for (const [bandLevel, upper] of RISK_LEVEL_UPPER_BOUNDS) {
    bands.push([bandLevel, start, upper]);
    start = upper;
  }
  bands.push(["critical", start, 100]);
  const [nx, ny] = at(score, R - 22);
  return (
    // The needle sweeps the upper half only: the score and its level sit under the pivot, clear of it at any score.
    <svg
      viewBox="0 0 200 142"
      className="mx-auto h-auto w-full max-w-64"
      role="img"
      aria-label={`Risk score ${score} of 100: ${level}`}
    >
      {bands.map(([bandLevel, from, to]) => (
        <path
          key={bandLevel}
          d={arc(from + 0.6, to - 0.6)}
          stroke={RISK_COLOR[bandLevel]}
          strokeWidth={14}
          fill="none"
          opacity={bandLevel === level ? 1 : 0.3}
        />
      ))}
      <line
        x1={CX}
        y1={CY}
        x2={nx}
        y2={ny}
        strokeWidth={3}
        strokeLinecap="round"
        className="stroke-zinc-700 dark:stroke-zinc-200"
      />
      <circle cx={CX} cy={CY} r={5} className="fill-zinc-700 dark:fill-zinc-200" />
      <text
        x={CX}
        y={CY + 29}
        textAnchor="middle"
        className="fill-zinc-900 text-[22px] font-semibold dark:fill-zinc-100"
      >
        {Math.round(score)}
      </text>
      <text
        x={CX}
        y={CY + 44}
        textAnchor="middle"
        className="fill-zinc-500 text-[11px] uppercase tracking-wider dark:fill-zinc-400"
      >
        {level} risk
      </text>
    </svg>
  );
}
