"use client";

import { type PointerEvent, useEffect, useRef, useState } from "react";
import type { OhlcvInterval } from "@/lib/domain/vocab";
import { formatDateTime, formatInteger, formatUsd } from "../format";
import type { Page } from "../types";
import { EmptyState } from "../ui/empty-state";
import { RequestProblem } from "../ui/request-problem";
import { useDashboardQuery } from "../use-dashboard-query";
import {
  type Candle,
  CHART_INTERVALS,
  candleIndexAt,
  formatAxisTime,
  formatPrice,
  labelEvery,
  ohlcvUrl,
  priceDomain,
  priceTicks,
  scale,
} from "./candles";

/** Drawn in pixels of the chart's own width (measured), so text stays legible on a phone. */
const H = 300;
const PAD = { left: 4, right: 76, top: 8, bottom: 22 };
const GAP = 8;
const VOLUME_H = 52;
const PRICE_H = H - PAD.top - PAD.bottom - GAP - VOLUME_H;
/**
 * Fewer slots than this and candles would be wide blocks: a young token's few candles keep a candle's width, at the
 * right (the latest) edge.
 */
const MIN_SLOTS = 40;
/** The timeframe buttons: the chosen one filled, the others lit on hover. */
const TIMEFRAME_ON = "bg-indigo-600 text-white";
const TIMEFRAME_OFF = "hover:bg-zinc-100 dark:hover:bg-zinc-800";
/** The readout above the chart: two lines on a phone, one from sm up, so the chart does not jump. */
const READOUT_CLASS =
  "mb-1 flex min-h-10 flex-wrap content-start gap-x-3 text-xs tabular-nums text-zinc-600 sm:min-h-5 dark:text-zinc-400";
/** Half a time label's width: a label whose centre is closer to the left edge would be cut. */
const HALF_LABEL = 18;
const TIME_LABEL_GAP = 72;
const PRICE_LABEL_GAP = 40;

const up = (c: Candle) => c.close >= c.open;

/** The chart's width in pixels, measured once mounted (the server renders the desktop width). */
function useWidth(initial: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.round(entry.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * Candlesticks of a token's USD price after each of its swaps and liquidity changes, the pool
 * price the header shows at the indexed block (GET /v1/tokens/{address}/ohlcv through the
 * dashboard's route), with a volume strip, a timeframe selector and a crosshair: a pointer (or a
 * finger, or the arrow keys) picks a candle, and its time, open, high, low, close and volume show
 * in a line reserved above the chart, so reading it never moves the page.
 */
export function CandlestickChart({
  address,
  initial,
}: {
  address: string;
  initial: { interval: OhlcvInterval; data: Page<Candle> };
}) {
  const [timeframe, setTimeframe] = useState(initial.interval);
  const query = useDashboardQuery<Page<Candle>>(ohlcvUrl(address, timeframe), {
    initial: { url: ohlcvUrl(address, initial.interval), data: initial.data },
    live: { token: address },
  });
  const candles = query.data?.data ?? [];
  // While another timeframe loads or fails, the candles on screen are those of the last answer.
  const shownInterval = CHART_INTERVALS.find((i) => query.shownUrl === ohlcvUrl(address, i)) ?? timeframe;
  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <div
          role="group"
          aria-label="Timeframe"
          className="inline-flex overflow-hidden rounded-md border border-zinc-300 text-xs dark:border-zinc-700"
        >
          {CHART_INTERVALS.map((i) => (
            <button
              key={i}
              type="button"
              aria-pressed={i === timeframe}
              onClick={() => setTimeframe(i)}
              className={`px-2.5 py-1 tabular-nums ${i === timeframe ? TIMEFRAME_ON : TIMEFRAME_OFF}`}
            >
              {i}
            </button>
          ))}
        </div>
        {query.isFetching && !query.isLoading && <span className="text-xs text-zinc-500">Updating…</span>}
      </div>
      <RequestProblem problem={query.problem} retryAt={query.retryAt} keeping={candles.length > 0} />
      {candles.length ? (
        <Candles candles={candles} interval={shownInterval} />
      ) : query.isSuccess && !query.isPlaceholderData ? (
        <EmptyState title="No swaps yet.">
          Candles appear with the token&apos;s first swap or liquidity change.
        </EmptyState>
      ) : (
        <div className="h-[300px]" />
      )}
    </div>
  );
}

function Candles({ candles, interval }: { candles: Candle[]; interval: OhlcvInterval }) {
  const { ref, width } = useWidth(720);
  const [pointer, setPointer] = useState<{ index: number; y: number | null } | null>(null);
  const plotRight = width - PAD.right;
  const slots = Math.max(candles.length, MIN_SLOTS);
  const slot = (plotRight - PAD.left) / slots;
  const first = PAD.left + (slots - candles.length) * slot;
  const body = Math.max(1, slot * 0.7);
  const center = (i: number) => first + (i + 0.5) * slot;

  const [lo, hi] = priceDomain(candles);
  const y = scale(lo, hi, PAD.top + PRICE_H, PAD.top);
  const priceAt = scale(PAD.top + PRICE_H, PAD.top, lo, hi);
  const { ticks, step } = priceTicks(lo, hi, Math.max(2, Math.floor(PRICE_H / PRICE_LABEL_GAP)));
  const volumeTop = PAD.top + PRICE_H + GAP;
  const maxVolume = Math.max(...candles.map((c) => c.volume_usd), 1);
  const volumeY = scale(0, maxVolume, volumeTop + VOLUME_H, volumeTop);
  const every = labelEvery(slot, TIME_LABEL_GAP);

  const active = pointer ? Math.min(pointer.index, candles.length - 1) : candles.length - 1;
  const shown = candles[active];
  const pick = (e: PointerEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const x = ((e.clientX - rect.left) / rect.width) * width;
    const py = ((e.clientY - rect.top) / rect.height) * H;
    setPointer({
      index: candleIndexAt(x, first, slot, candles.length),
      y: py >= PAD.top && py <= PAD.top + PRICE_H ? py : null,
    });
  };
  const crossY = pointer ? (pointer.y ?? y(shown.close)) : null;

  return (
    <figure ref={ref} className="min-w-0">
      <figcaption className={READOUT_CLASS} aria-live="polite" data-testid="candle-readout">
        <span>{formatDateTime(shown.time)}</span>
        {(["open", "high", "low", "close"] as const).map((k) => (
          <span key={k}>
            {k[0].toUpperCase()}{" "}
            <strong className={up(shown) ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}>
              {formatPrice(shown[k])}
            </strong>
          </span>
        ))}
        <span>
          Vol <strong className="text-zinc-900 dark:text-zinc-100">{formatUsd(shown.volume_usd)}</strong>
        </span>
        <span>{formatInteger(shown.trades)} swaps</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${H}`}
        width="100%"
        height={H}
        className="block touch-pan-y select-none outline-offset-4"
        role="img"
        aria-label={
          `${candles.length} ${interval} candles from ${formatDateTime(candles[0].time)}, ` +
          `price ${formatPrice(candles[0].open)} to ${formatPrice(candles.at(-1)!.close)}. ` +
          "Use the arrow keys to read each candle."
        }
        tabIndex={0}
        onPointerMove={pick}
        onPointerDown={pick}
        onPointerLeave={(e) => e.pointerType !== "touch" && setPointer(null)}
        onKeyDown={(e) => {
          if (e.key === "ArrowLeft") setPointer({ index: Math.max(0, active - 1), y: null });
          else if (e.key === "ArrowRight") setPointer({ index: Math.min(candles.length - 1, active + 1), y: null });
          else if (e.key === "Escape") setPointer(null);
          else return;
          e.preventDefault();
        }}
      >
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={plotRight} y1={y(v)} y2={y(v)} className="stroke-zinc-200 dark:stroke-zinc-800" />
            <text
              x={plotRight + 6}
              y={y(v) + 4}
              className="fill-zinc-500 text-[11px] dark:fill-zinc-400"
              data-testid="price-tick"
            >
              {formatPrice(v, step)}
            </text>
          </g>
        ))}
        {/* Counted from the latest candle, so the newest time is always labelled. */}
        {candles.map((c, i) =>
          (candles.length - 1 - i) % every === 0 && center(i) >= PAD.left + HALF_LABEL ? (
            <text
              key={c.time}
              x={center(i)}
              y={H - 6}
              textAnchor="middle"
              className="fill-zinc-500 text-[11px] dark:fill-zinc-400"
            >
              {formatAxisTime(c.time, interval)}
            </text>
          ) : null,
        )}
        {candles.map((c, i) => {
          const color = up(c) ? "fill-emerald-500 stroke-emerald-500" : "fill-red-500 stroke-red-500";
          const top = y(Math.max(c.open, c.close));
          return (
            <g key={c.time} className={color} data-testid="candle" data-time={c.time}>
              <line x1={center(i)} x2={center(i)} y1={y(c.high)} y2={y(c.low)} strokeWidth={1} />
              <rect
                x={center(i) - body / 2}
                y={top}
                width={body}
                height={Math.max(1, y(Math.min(c.open, c.close)) - top)}
                strokeWidth={0}
              />
              <rect
                x={center(i) - body / 2}
                y={volumeY(c.volume_usd)}
                width={body}
                height={volumeTop + VOLUME_H - volumeY(c.volume_usd)}
                strokeWidth={0}
                opacity={0.35}
              />
            </g>
          );
        })}
        <text x={plotRight + 6} y={volumeTop + 10} className="fill-zinc-500 text-[11px] dark:fill-zinc-400">
          {formatUsd(maxVolume)}
        </text>
        {pointer && crossY !== null && (
          <g data-testid="crosshair" className="pointer-events-none">
            <line
              x1={center(active)}
              x2={center(active)}
              y1={PAD.top}
              y2={volumeTop + VOLUME_H}
              className="stroke-zinc-500"
              strokeDasharray="3 3"
            />
            <line
              x1={PAD.left}
              x2={plotRight}
              y1={crossY}
              y2={crossY}
              className="stroke-zinc-500"
              strokeDasharray="3 3"
            />
            <rect
              x={plotRight + 1}
              y={crossY - 9}
              width={PAD.right - 1}
              height={18}
              rx={3}
              className="fill-zinc-700 dark:fill-zinc-300"
            />
            <text x={plotRight + 6} y={crossY + 4} className="fill-white text-[11px] dark:fill-zinc-900">
              {formatPrice(priceAt(crossY), step / 10)}
            </text>
          </g>
        )}
      </svg>
    </figure>
  );
}
