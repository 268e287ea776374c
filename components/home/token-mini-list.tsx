import Link from "next/link";
import type { ReactNode } from "react";
import type { Token } from "@/lib/queries/tokens";
import { Flash } from "../live/flash";
import { RiskScore } from "../risk";

/** A compact ranked list of tokens with one metric each, for the overview. */
export function TokenMiniList({
  tokens,
  metric,
  label,
}: {
  tokens: Token[];
  metric: (t: Token) => ReactNode;
  label: string;
}) {
  if (!tokens.length) return <p className="text-sm text-zinc-500">No tokens indexed yet.</p>;
  return (
    <ol aria-label={label} className="divide-y divide-zinc-100 dark:divide-zinc-800">
      {tokens.map((t, i) => (
        <li key={t.address} className="flex h-11 items-center gap-3 text-sm">
          <span className="w-5 text-right text-xs tabular-nums text-zinc-400">{i + 1}</span>
          <Link
            href={`/tokens/${t.address}`}
            className="min-w-0 flex-1 truncate font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            {t.name} <span className="text-zinc-500 dark:text-zinc-400">{t.symbol}</span>
          </Link>
          <span className="shrink-0 text-right tabular-nums text-zinc-700 dark:text-zinc-300">
            <Flash>{metric(t)}</Flash>
          </span>
          <RiskScore score={t.risk_score} />
        </li>
      ))}
    </ol>
  );
}
