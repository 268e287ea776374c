import type { RiskLevel } from "@/lib/domain/vocab";
import { riskLevel } from "@/lib/scoring/risk";
import { humanize } from "./format";
import { Badge, type Tone } from "./ui/badge";

export const RISK_TONE: Record<RiskLevel, Tone> = { low: "good", medium: "warn", high: "bad", critical: "danger" };

/** Hex colours of the levels, for SVG strokes (classes cannot colour an arc's gradient stop). */
export const RISK_COLOR: Record<RiskLevel, string> = {
  low: "#10b981",
  medium: "#f59e0b",
  high: "#f97316",
  critical: "#ef4444",
};

export function RiskScore({ score }: { score: number }) {
  const level = riskLevel(score);
  return (
    <Badge tone={RISK_TONE[level]} title={`Risk ${score} of 100: ${level}`}>
      <span className="tabular-nums">{Math.round(score)}</span>
      <span className="sr-only"> of 100, {level} risk</span>
    </Badge>
  );
}

const FLAG_TEXT: Record<string, string> = {
  wash_trading: "Volume traded back and forth between related wallets",
  liquidity_pulled: "Most of the pool's liquidity was removed",
  concentrated_ownership: "A few wallets hold most of the supply",
  sybil_cluster: "Many holders were funded by the same wallet",
  smart_money_exiting: "High-reputation wallets are selling",
};

export function RiskFlags({ flags }: { flags: string[] }) {
  if (!flags.length) return <span className="text-xs text-zinc-400">none</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {flags.map((f) => (
        <Badge key={f} tone="danger" title={FLAG_TEXT[f]}>
          {humanize(f)}
        </Badge>
      ))}
    </span>
  );
}

export const flagDescription = (flag: string) => FLAG_TEXT[flag] ?? humanize(flag);
