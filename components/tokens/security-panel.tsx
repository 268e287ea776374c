import { formatDateTime, formatInteger } from "@/components/format";
import type { TokenSecurity } from "@/lib/queries/security";
import { type Line, liquidityLines, ownerLines, type Tone, tradeLines } from "./security-text";

const TONE: Record<Tone, { mark: string; className: string }> = {
  bad: { mark: "✕", className: "text-red-700 dark:text-red-400" },
  warn: { mark: "!", className: "text-amber-700 dark:text-amber-400" },
  good: { mark: "✓", className: "text-emerald-700 dark:text-emerald-400" },
  unknown: { mark: "?", className: "text-zinc-500 dark:text-zinc-400" },
};

function Lines({ title, lines }: { title: string; lines: Line[] }) {
  return (
    <div>
      <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{title}</h3>
      <ul className="space-y-1 text-sm">
        {lines.map((l) => (
          <li key={l.text} className="flex gap-2" data-tone={l.tone}>
            <span aria-hidden className={`w-3 shrink-0 text-center font-semibold ${TONE[l.tone].className}`}>
              {TONE[l.tone].mark}
            </span>
            <span className={l.tone === "bad" ? TONE.bad.className : undefined}>{l.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Can it be sold? The token's security checks in words, and when they ran. */
export function SecurityPanel({ security }: { security: TokenSecurity }) {
  const { trade } = security;
  return (
    <div className="space-y-3" data-testid="security-panel">
      <Lines title="Trading" lines={tradeLines(security)} />
      <Lines title="Contract" lines={ownerLines(security)} />
      <Lines title="Liquidity" lines={liquidityLines(security)} />
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {trade.block !== undefined && trade.checked_at
          ? `Checked at block ${formatInteger(trade.block)}, ${formatDateTime(trade.checked_at)}, ` +
            "by simulating a small buy and sell."
          : "Not checked yet: the indexer checks new tokens shortly after it sees them."}
      </p>
    </div>
  );
}
