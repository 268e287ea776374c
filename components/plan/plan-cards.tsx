import type { ReactNode } from "react";
import type { PlanLimits } from "@/lib/queries/plans";
import { PlanLimitList } from "./plan-limits";
import { PlanPrice } from "./plan-price";

/** The current plan's card is ringed in indigo. */
const CURRENT_BORDER = "border-indigo-500 ring-1 ring-indigo-500";
const OTHER_BORDER = "border-zinc-200 dark:border-zinc-800";

/** One card per plan (price and limits from the plans table); `action` adds a control to a card. */
export function PlanCards({
  plans,
  current,
  action,
}: {
  plans: PlanLimits[];
  current: string;
  action: (plan: PlanLimits) => ReactNode;
}) {
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {plans.map((p) => {
        const isCurrent = p.id === current;
        return (
          <li
            key={p.id}
            aria-current={isCurrent ? "true" : undefined}
            className={`rounded-lg border bg-white p-4 dark:bg-zinc-900 ${isCurrent ? CURRENT_BORDER : OTHER_BORDER}`}
          >
            <div className="mb-1 flex items-center justify-between">
              <h3 className="font-semibold">{p.label}</h3>
              {isCurrent && (
                <span className="text-xs font-medium text-indigo-700 dark:text-indigo-300">Current plan</span>
              )}
            </div>
            <PlanPrice plan={p} />
            <PlanLimitList plan={p} />
            {!isCurrent && action(p)}
          </li>
        );
      })}
    </ul>
  );
}
