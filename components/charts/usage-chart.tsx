import type { KeyUsage } from "@/lib/queries/usage";
import { formatCompact, formatInteger } from "../format";

const W = 560;
const H = 150;
const PAD = { left: 40, right: 8, top: 12, bottom: 20 };
/** The limit line is drawn when the busiest day is at least 1/LIMIT_IN_VIEW of it; else it is stated. */
const LIMIT_IN_VIEW = 100;
const NICE_STEPS = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];

/** The smallest round number (1, 1.5, 2 … × 10ⁿ) at or above n, for the top of the axis. */
function niceCeil(n: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(n));
  return NICE_STEPS.find((s) => s * magnitude >= n)! * magnitude;
}

/** Requests per UTC day of one key (accepted, and rejected stacked on top) against its daily limit. */
export function UsageChart({ usage }: { usage: KeyUsage }) {
  const busiest = Math.max(...usage.days.map((d) => d.requests + d.rejected), 1);
  const limitInView = usage.dailyLimit <= busiest * LIMIT_IN_VIEW;
  // Whole requests: a small axis tops out at an integer.
  const top = Math.ceil(niceCeil(limitInView ? Math.max(busiest, usage.dailyLimit) * 1.1 : busiest * 1.15));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / usage.days.length;
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const today = usage.days.at(-1)!;
  const total = usage.days.reduce((s, d) => s + d.requests, 0);
  const requestsToday = formatInteger(today.requests);

  return (
    <figure>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-auto w-full"
        role="img"
        aria-label={
          `${usage.name}: ${formatInteger(total)} requests in ${usage.days.length} days, ${requestsToday} today, ` +
          `against a limit of ${formatInteger(usage.dailyLimit)} a day.`
        }
      >
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className="stroke-zinc-300 dark:stroke-zinc-700" />
        <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" className="fill-zinc-500 text-[10px]">
          0
        </text>
        <text x={PAD.left - 6} y={PAD.top + 8} textAnchor="end" className="fill-zinc-500 text-[10px]">
          {formatCompact(top)}
        </text>
        {usage.days.map((d, i) => {
          const x = PAD.left + i * slot + slot * 0.15;
          const w = slot * 0.7;
          return (
            <g key={d.day}>
              <title>{`${d.day}: ${formatInteger(d.requests)} requests, ${formatInteger(d.rejected)} rejected`}</title>
              <rect
                x={x}
                y={y(d.requests)}
                width={w}
                height={y(0) - y(d.requests)}
                className="fill-indigo-500 dark:fill-indigo-400"
              />
              <rect
                x={x}
                y={y(d.requests + d.rejected)}
                width={w}
                height={y(d.requests) - y(d.requests + d.rejected)}
                className="fill-red-500"
              />
            </g>
          );
        })}
        {limitInView && (
          <g>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(usage.dailyLimit)}
              y2={y(usage.dailyLimit)}
              strokeDasharray="5 4"
              className="stroke-red-500"
            />
            <text
              x={W - PAD.right}
              y={y(usage.dailyLimit) - 4}
              textAnchor="end"
              className="fill-red-600 text-[10px] dark:fill-red-400"
            >
              limit {formatInteger(usage.dailyLimit)}/day
            </text>
          </g>
        )}
        <text x={PAD.left} y={H - 5} className="fill-zinc-500 text-[10px]">
          {usage.days[0].day}
        </text>
        <text x={W - PAD.right} y={H - 5} textAnchor="end" className="fill-zinc-500 text-[10px]">
          {today.day} (today, UTC)
        </text>
      </svg>
      <figcaption className="mt-1 flex flex-wrap gap-x-4 text-xs text-zinc-600 dark:text-zinc-400">
        <span>
          Today <strong className="tabular-nums text-zinc-900 dark:text-zinc-100">{requestsToday}</strong> of{" "}
          {formatInteger(usage.dailyLimit)}
        </span>
        <span>{formatInteger(usage.minuteLimit)} per minute</span>
        {!limitInView && <span>The daily limit is far above this key&apos;s use.</span>}
        <span className="inline-flex items-center gap-1">
          <span className="inline-block size-2 bg-indigo-500" aria-hidden="true" /> served
        </span>
        <span className="inline-flex items-center gap-1">
          <span className="inline-block size-2 bg-red-500" aria-hidden="true" /> rejected (429)
        </span>
      </figcaption>
    </figure>
  );
}
