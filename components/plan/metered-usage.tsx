import type { MonthlyUsage } from "@/lib/billing/metering";
import { formatInteger } from "../format";
import { Stat } from "../ui/stat";

/** This month's requests, and on API Tier how many of them went to Stripe as metered usage. */
export function MeteredUsage({ usage, metered }: { usage: MonthlyUsage; metered: boolean }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-3" data-testid="monthly-usage">
      <Stat label={`Requests since ${usage.month}`} value={formatInteger(usage.requests)} />
      {metered && (
        <>
          <Stat label="Reported to Stripe for billing" value={formatInteger(usage.reported)} />
          <Stat label="Queued for Stripe" value={formatInteger(usage.pending)} />
        </>
      )}
    </dl>
  );
}
