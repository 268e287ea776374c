import type { getTokenProfile } from "@/lib/queries/tokens";
import { Address, walletHref } from "../address";
import { formatPct } from "../format";
import { Badge } from "../ui/badge";
import { EmptyState } from "../ui/empty-state";
import { numClass, rowClass, TableFrame, TableHead, tdClass } from "../ui/table";
import { ClassificationBadge, NetActivityBadge } from "../wallet-badges";

type Holder = NonNullable<Awaited<ReturnType<typeof getTokenProfile>>>["top_holders"][number];

export function TopHolders({ holders }: { holders: Holder[] }) {
  if (!holders.length) return <EmptyState title="No holders yet." />;
  return (
    <TableFrame label="Top holders">
      <table className="w-full min-w-[640px] text-sm">
        <TableHead
          cells={[
            "Wallet",
            { label: "Share", numeric: true },
            "Class",
            { label: "Reputation", numeric: true },
            "Last 24 h",
            "Tags",
          ]}
        />
        <tbody>
          {holders.map((h) => (
            <tr key={h.address} className={rowClass}>
              <td className={tdClass}>
                <Address value={h.address} href={walletHref(h.address)} />
              </td>
              <td className={`${tdClass} ${numClass}`}>{formatPct(h.holding_pct, 2)}</td>
              <td className={tdClass}>
                <ClassificationBadge value={h.classification} />
              </td>
              <td className={`${tdClass} ${numClass}`}>{Math.round(h.reputation_score)}</td>
              <td className={tdClass}>
                <NetActivityBadge value={h.net_activity} />
              </td>
              <td className={tdClass}>
                <span className="flex gap-1">
                  {h.tags.map((tag) => (
                    <Badge key={tag} title={tag}>
                      {tag.split(":")[0]}
                    </Badge>
                  ))}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
