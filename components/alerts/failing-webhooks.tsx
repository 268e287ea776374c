import type { FailingWebhookTarget } from "@/lib/queries/failing-webhooks";
import { formatInteger } from "../format";
import { Card } from "../ui/card";
import { numClass, rowClass, TableFrame, TableHead, tdClass } from "../ui/table";

/**
 * The account's webhook targets that are failing, with why: deliveries to a domain that keeps
 * failing are put off for a while (the outbox's circuit breaker), so the owner learns it here
 * rather than from silence.
 */
export function FailingWebhooks({ targets }: { targets: (FailingWebhookTarget & { domain: string })[] }) {
  if (!targets.length) return null;
  return (
    <Card title="Failing webhook targets">
      <p className="mb-3 text-sm text-zinc-700 dark:text-zinc-300">
        The latest delivery to each of these failed. After a few failures in a row, deliveries to the same domain are
        put off for a few minutes at a time, and resume by themselves once it answers; each notification is retried for
        about an hour.
      </p>
      <TableFrame label="Failing webhook targets">
        <table className="w-full text-sm" data-testid="failing-webhooks">
          <TableHead
            cells={[
              "Target",
              { label: "Alerts", numeric: true },
              { label: "Undelivered", numeric: true },
              "Last error",
            ]}
          />
          <tbody>
            {targets.map((t) => (
              <tr key={t.url} className={rowClass}>
                <td className={tdClass}>
                  <span className="font-medium">{t.domain}</span>
                  <span className="block break-all font-mono text-xs text-zinc-500">{t.url}</span>
                </td>
                <td className={`${tdClass} ${numClass}`}>{formatInteger(t.alerts)}</td>
                <td className={`${tdClass} ${numClass}`}>{formatInteger(t.undelivered)}</td>
                <td className={`${tdClass} text-red-700 dark:text-red-300`}>{t.lastError}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
    </Card>
  );
}
