import type { FlagEvidence } from "@/db/schema";
import { Address, walletHref } from "../address";
import { humanize } from "../format";
import { flagDescription } from "../risk";
import { Badge } from "../ui/badge";
import { EmptyState } from "../ui/empty-state";

const MAX_LISTED = 5;

/** A metric beside the threshold it crossed; shares (0..1) as percentages. */
function MetricRow({ name, value, threshold }: { name: string; value: number; threshold?: number }) {
  const isShare = name.endsWith("_share") || name === "hhi";
  const show = (v: number) => (isShare ? `${(v * 100).toFixed(1)}%` : Number(v.toPrecision(4)).toLocaleString("en-US"));
  return (
    <tr>
      <th scope="row" className="py-0.5 pr-3 text-left font-normal text-zinc-600 dark:text-zinc-400">
        {humanize(name)}
      </th>
      <td className="py-0.5 pr-3 text-right font-medium tabular-nums">{show(value)}</td>
      <td className="py-0.5 text-right text-xs tabular-nums text-zinc-500">{threshold === undefined ? "" : `threshold ${show(threshold)}`}</td>
    </tr>
  );
}

/** Each raised flag with why: the numbers against their thresholds, the wallets and transactions. */
export function FlagEvidenceList({ evidence }: { evidence: FlagEvidence[] }) {
  if (!evidence.length) return <EmptyState title="No risk flags raised.">None of the five risk patterns was found for this token.</EmptyState>;
  return (
    <ul className="space-y-4">
      {evidence.map((e) => (
        <li key={e.flag} className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone="danger">{humanize(e.flag)}</Badge>
            <span className="text-sm text-zinc-700 dark:text-zinc-300">{flagDescription(e.flag)}</span>
          </div>
          <table className="mt-2 text-sm">
            <tbody>
              {Object.entries(e.metrics).map(([name, value]) => (
                <MetricRow key={name} name={name} value={value} threshold={e.thresholds[name]} />
              ))}
            </tbody>
          </table>
          <div className="mt-2 grid gap-2 text-sm sm:grid-cols-2">
            {e.wallets.length > 0 && (
              <div>
                <p className="text-xs text-zinc-500">Wallets ({e.wallets.length})</p>
                <ul className="flex flex-wrap gap-x-3">
                  {e.wallets.slice(0, MAX_LISTED).map((w) => (
                    <li key={w}>
                      <Address value={w} href={walletHref(w)} />
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {e.tx_hashes.length > 0 && (
              <div>
                <p className="text-xs text-zinc-500">Transactions ({e.tx_hashes.length})</p>
                <ul className="flex flex-wrap gap-x-3">
                  {e.tx_hashes.slice(0, MAX_LISTED).map((h) => (
                    <li key={h}>
                      <Address value={h} chars={6} />
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {e.funder && (
              <div>
                <p className="text-xs text-zinc-500">Common funder</p>
                <Address value={e.funder} href={walletHref(e.funder)} />
              </div>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
