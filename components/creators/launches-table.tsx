import Link from "next/link";
import { LAUNCH_OUTCOME_WORDS, type LaunchOutcome } from "@/lib/domain/vocab";
import type { listLaunches } from "@/lib/queries/launches";
import { tokenHref } from "../address";
import { formatDateTime, formatUsd, humanize } from "../format";
import { Badge, type Tone } from "../ui/badge";
import { numClass, rowClass, TableFrame, TableHead, tdClass } from "../ui/table";

type Launch = NonNullable<Awaited<ReturnType<typeof listLaunches>>>["data"][number];

const OUTCOME_TONE: Record<LaunchOutcome, Tone> = { trading: "good", liquidity_pulled: "danger", abandoned: "warn" };

/** A wallet's launches (GET /v1/wallets/{address}/launches): newest first, each with its outcome. */
export function LaunchesTable({ launches }: { launches: Launch[] }) {
  return (
    <TableFrame label="Launches" maxHeight>
      <table className="w-full min-w-[640px] text-sm">
        <TableHead
          cells={[
            "Token",
            "Outcome",
            { label: "Liquidity", numeric: true },
            { label: "Market cap", numeric: true },
            "Launched",
            "Last trade",
          ]}
          sticky
        />
        <tbody>
          {launches.map((l) => (
            <tr key={l.token_address} className={rowClass} data-token={l.token_address} data-outcome={l.outcome}>
              <td className={tdClass}>
                <Link
                  href={tokenHref(l.token_address)}
                  className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                >
                  {l.token_symbol}
                </Link>{" "}
                <span className="text-xs text-zinc-500 dark:text-zinc-400">{l.launchpad}</span>
              </td>
              <td className={tdClass}>
                <Badge tone={OUTCOME_TONE[l.outcome]} title={LAUNCH_OUTCOME_WORDS[l.outcome]}>
                  {humanize(l.outcome)}
                </Badge>
              </td>
              <td className={`${tdClass} ${numClass}`}>{formatUsd(l.liquidity_usd)}</td>
              <td className={`${tdClass} ${numClass}`}>{formatUsd(l.market_cap_usd)}</td>
              <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(l.created_at)}</td>
              <td className={`${tdClass} whitespace-nowrap`}>
                {l.last_trade_at ? formatDateTime(l.last_trade_at) : "never"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
