import type { Classification } from "@/lib/domain/vocab";
import { CLASSIFICATION_TEXT } from "@/lib/scoring/score-labels";
import { humanize } from "./format";
import { Badge, type Tone } from "./ui/badge";

const CLASS_TONE: Record<string, Tone> = {
  smart_money: "good",
  whale: "info",
  sniper: "warn",
  bot: "warn",
  insider: "bad",
  wash_trader: "danger",
  fresh: "neutral",
  retail: "neutral",
};

export function ClassificationBadge({ value }: { value: string }) {
  const meaning = CLASSIFICATION_TEXT[value as Classification];
  return (
    <Badge tone={CLASS_TONE[value] ?? "neutral"} title={meaning && `${humanize(value)}: ${meaning}`}>
      {humanize(value)}
    </Badge>
  );
}

const CONFIDENCE_TONE: Record<string, Tone> = { high: "good", medium: "warn", low: "neutral" };

export function ConfidenceBadge({ value }: { value: string }) {
  return (
    <Badge tone={CONFIDENCE_TONE[value] ?? "neutral"} title="Confidence in this estimate">
      {value} confidence
    </Badge>
  );
}

const ACTIVITY_TONE: Record<string, Tone> = {
  accumulating: "good",
  distributing: "bad",
  exited: "danger",
  holding: "neutral",
};

export function NetActivityBadge({ value }: { value: string }) {
  return <Badge tone={ACTIVITY_TONE[value] ?? "neutral"}>{value}</Badge>;
}
