"use client";

import { useState } from "react";
import type { PriceVolumeSeries } from "@/lib/queries/token-series";
import { formatDateTime, formatUsd } from "../format";

const W = 720;
const H = 260;
const PAD = { left: 8, right: 64, top: 10, bottom: 22 };
const PRICE_H = 160;
const GAP = 8;
const VOLUME_H = H - PAD.top - PAD.bottom - PRICE_H - GAP;

/**
 * Price (VWAP per bucket, a line with gaps where nothing priced traded) over volume bars, drawn
 * by hand in SVG. Pointer or arrow keys pick a bucket; its values show in a line reserved above
 * the chart, so reading the chart never moves the page.
 */
export function PriceVolumeChart({ series }: { series: PriceVolumeSeries }) {
  const { points } = series;
  const [picked, setPicked] = useState<number | null>(null);
  if (!points.length) return <p className="text-sm text-zinc-500">No swaps in the last {series.bucket_minutes >= 1440 ? "week" : "days"}.</p>;

  const from = new Date(series.from).getTime();
  const span = Math.max(1, new Date(series.to).getTime() - from);
  const plotW = W - PAD.left - PAD.right;
  const barW = Math.max(1, (plotW * series.bucket_minutes * 60_000) / span - 1);
  const x = (t: string) => PAD.left + ((new Date(t).getTime() - from) / span) * (plotW - barW);

  const prices = points.flatMap((p) => (p.price_usd === null ? [] : [p.price_usd]));
  const lo = Math.min(...prices);
  const hi = Math.max(...prices);
  const pad = (hi - lo) * 0.08 || hi * 0.05 || 1;
  const yPrice = (v: number) => PAD.top + PRICE_H - ((v - (lo - pad)) / (hi - lo + 2 * pad)) * PRICE_H;
  const maxVolume = Math.max(...points.map((p) => p.volume_usd), 1);
  const volumeTop = PAD.top + PRICE_H + GAP;

  let path = "";
  let open = false;
  for (const p of points) {
    if (p.price_usd === null) {
      open = false;
      continue;
    }
    path += `${open ? "L" : "M"}${(x(p.t) + barW / 2).toFixed(1)},${yPrice(p.price_usd).toFixed(1)}`;
    open = true;
  }

  const active = picked === null ? points.length - 1 : picked;
  const shown = points[active];
  const pickAt = (clientX: number, rect: DOMRect) => {
    const svgX = ((clientX - rect.left) / rect.width) * W;
    const distance = (i: number) => Math.abs(x(points[i].t) + barW / 2 - svgX);
    let best = 0;
    for (let i = 1; i < points.length; i++) if (distance(i) < distance(best)) best = i;
    setPicked(best);
  };
  const totalVolume = points.reduce((s, p) => s + p.volume_usd, 0);

  return (
    <figure>
      <figcaption className="mb-2 flex h-10 flex-wrap content-start gap-x-4 text-xs tabular-nums text-zinc-600 sm:h-5 dark:text-zinc-400" aria-live="polite">
        <span>{formatDateTime(shown.t)}</span>
        <span>
          Price <strong className="text-zinc-900 dark:text-zinc-100">{formatUsd(shown.price_usd)}</strong>
        </span>
        <span>
          Volume <strong className="text-zinc-900 dark:text-zinc-100">{formatUsd(shown.volume_usd)}</strong>
        </span>
        <span>{shown.trades} swaps</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-auto w-full touch-none select-none outline-offset-4"
        role="img"
        aria-label={`Price from ${formatUsd(prices[0])} to ${formatUsd(prices.at(-1))}, ${formatUsd(totalVolume)} traded, in ${series.bucket_minutes}-minute buckets. Use the arrow keys to read each bucket.`}
        tabIndex={0}
        onPointerMove={(e) => pickAt(e.clientX, e.currentTarget.getBoundingClientRect())}
        onPointerLeave={() => setPicked(null)}
        onKeyDown={(e) => {
          if (e.key === "ArrowLeft") setPicked(Math.max(0, active - 1));
          else if (e.key === "ArrowRight") setPicked(Math.min(points.length - 1, active + 1));
          else return;
          e.preventDefault();
        }}
      >
        {[hi + pad * 0.5, (hi + lo) / 2, lo - pad * 0.5].map((v) => (
          <g key={v} className="text-zinc-200 dark:text-zinc-800">
            <line x1={PAD.left} x2={W - PAD.right} y1={yPrice(v)} y2={yPrice(v)} stroke="currentColor" strokeDasharray="3 4" />
            <text x={W - PAD.right + 6} y={yPrice(v) + 4} className="fill-zinc-500 text-[11px] dark:fill-zinc-400">
              {formatUsd(v)}
            </text>
          </g>
        ))}
        {points.map((p, i) => {
          const h = Math.max(1, (p.volume_usd / maxVolume) * VOLUME_H);
          return (
            <rect
              key={p.t}
              x={x(p.t)}
              y={volumeTop + VOLUME_H - h}
              width={barW}
              height={h}
              className={i === active ? "fill-indigo-500" : "fill-indigo-200 dark:fill-indigo-900"}
            />
          );
        })}
        <text x={W - PAD.right + 6} y={volumeTop + 10} className="fill-zinc-500 text-[11px] dark:fill-zinc-400">
          {formatUsd(maxVolume)}
        </text>
        <path d={path} fill="none" strokeWidth={2} strokeLinejoin="round" className="stroke-indigo-600 dark:stroke-indigo-400" />
        <line x1={x(shown.t) + barW / 2} x2={x(shown.t) + barW / 2} y1={PAD.top} y2={volumeTop + VOLUME_H} className="stroke-zinc-400" strokeDasharray="2 3" />
        {shown.price_usd !== null && <circle cx={x(shown.t) + barW / 2} cy={yPrice(shown.price_usd)} r={4} className="fill-indigo-600 dark:fill-indigo-400" />}
        <text x={PAD.left} y={H - 6} className="fill-zinc-500 text-[11px] dark:fill-zinc-400">
          {formatDateTime(series.from)}
        </text>
        <text x={W - PAD.right} y={H - 6} textAnchor="end" className="fill-zinc-500 text-[11px] dark:fill-zinc-400">
          {formatDateTime(series.to)}
        </text>
      </svg>
    </figure>
  );
}
