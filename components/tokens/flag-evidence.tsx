import type { ReactNode } from "react";
import type { FlagEvidence } from "@/db/schema";
import { type ReadableMetric, readableMetrics } from "@/lib/scoring/evidence-labels";
import { Address, walletHref } from "../address";
import { humanize } from "../format";
import { flagDescription } from "../risk";
import { Badge } from "../ui/badge";
import { EmptyState } from "../ui/empty-state";

const MAX_LISTED = 5;

/** A metric in words, its value, and the condition it is read against; the one that raised the flag stands out. */
function MetricRow({ metric }: { metric: ReadableMetric }) {
  return (
    <tr className={metric.tripped ? "font-medium" : undefined}>
      <th scope="row" className="py-0.5 pr-3 text-left font-normal text-zinc-600 dark:text-zinc-400">
        {metric.label}
      </th>
      <td className="py-0.5 pr-3 text-right tabular-nums">{metric.value}</td>
      <td className="py-0.5 text-xs text-zinc-500">
        {metric.condition}
        {metric.tripped && (
          <>
            {" "}
            <Badge tone="danger">raised the flag</Badge>
          </>
        )}
      </td>
    </tr>
  );
}

/**
 * "Wallets: 5 of 6" with the rest behind a disclosure; the evidence keeps the first 25 of a
 * larger group, and says so.
 */
function ListedItems({
  title,
  items,
  total,
  render,
}: {
  title: string;
  items: string[];
  total: number;
  render: (item: string) => ReactNode;
}) {
  if (items.length === 0) return null;
  const shown = items.slice(0, MAX_LISTED);
  const kept = items.length < total ? ` (the evidence keeps ${items.length} of ${total})` : "";
  return (
    <div>
      <p className="text-xs text-zinc-500">
        {title}: {shown.length} of {total}
      </p>
      <ul className="flex flex-wrap gap-x-3">
        {shown.map((item) => (
          <li key={item}>{render(item)}</li>
        ))}
      </ul>
      {items.length > shown.length && (
        <details className="mt-1 text-sm">
          <summary className="cursor-pointer text-xs text-indigo-700 hover:underline dark:text-indigo-300">
            Show all {items.length}
            {kept}
          </summary>
          <ul className="mt-1 flex flex-wrap gap-x-3">
            {items.slice(MAX_LISTED).map((item) => (
              <li key={item}>{render(item)}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** Each raised flag with why: the numbers against their conditions in words, the wallets and transactions. */
export function FlagEvidenceList({ evidence }: { evidence: FlagEvidence[] }) {
  if (!evidence.length)
    return (
      <EmptyState title="No risk flags raised.">None of the five risk patterns was found for this token.</EmptyState>
    );
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
              {readableMetrics(e).map((m) => (
                <MetricRow key={m.name} metric={m} />
              ))}
            </tbody>
          </table>
          <div className="mt-2 grid gap-2 text-sm sm:grid-cols-2">
            <ListedItems
              title="Wallets"
              items={e.wallets}
              total={e.wallet_count}
              render={(w) => <Address value={w} href={walletHref(w)} />}
            />
            <ListedItems
              title="Transactions"
              items={e.tx_hashes}
              total={e.tx_count}
              render={(h) => <Address value={h} chars={6} />}
            />
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
