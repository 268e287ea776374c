import type { PlanLimits } from "@/lib/queries/plans";
import { formatInteger } from "../format";

/** A plan's limits as the plans table states them. */
export function PlanLimitList({ plan }: { plan: PlanLimits }) {
  const row = "flex justify-between gap-3 py-1";
  return (
    <dl className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800" data-testid={`limits-${plan.id}`}>
      <div className={row}>
        <dt className="text-zinc-600 dark:text-zinc-400">Requests per minute</dt>
        <dd className="font-medium tabular-nums">{formatInteger(plan.ratePerMinute)}</dd>
      </div>
      <div className={row}>
        <dt className="text-zinc-600 dark:text-zinc-400">Requests per day</dt>
        <dd className="font-medium tabular-nums">{formatInteger(plan.ratePerDay)}</dd>
      </div>
      <div className={row}>
        <dt className="text-zinc-600 dark:text-zinc-400">API keys</dt>
        <dd className="font-medium tabular-nums">{formatInteger(plan.maxKeys)}</dd>
      </div>
      <div className={row}>
        <dt className="text-zinc-600 dark:text-zinc-400">Active alerts</dt>
        <dd className="font-medium tabular-nums">{formatInteger(plan.maxActiveAlerts)}</dd>
      </div>
      <div className={row}>
        <dt className="text-zinc-600 dark:text-zinc-400">Webhook alerts</dt>
        <dd className="font-medium">{plan.webhooks ? "yes" : "no"}</dd>
      </div>
    </dl>
  );
}
