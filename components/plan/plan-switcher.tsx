"use client";

import type { ReactNode } from "react";
import { buttonClass } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { useRefreshingMutation } from "../use-refreshing-mutation";

/** One card per plan (limits rendered by the server), with a switch button on the others. */
export function PlanSwitcher({ current, plans }: { current: string; plans: { id: string; label: string; limits: ReactNode }[] }) {
  const change = useRefreshingMutation<string>((plan) => ({ url: "/api/plan", method: "PUT", body: { plan } }));
  return (
    <div className="space-y-3">
      {change.error && <ErrorMessage>{change.error.message}</ErrorMessage>}
      <ul className="grid gap-4 md:grid-cols-3">
        {plans.map((p) => {
          const isCurrent = p.id === current;
          return (
            <li
              key={p.id}
              aria-current={isCurrent ? "true" : undefined}
              className={`rounded-lg border bg-white p-4 dark:bg-zinc-900 ${isCurrent ? "border-indigo-500 ring-1 ring-indigo-500" : "border-zinc-200 dark:border-zinc-800"}`}
            >
              <div className="mb-2 flex items-center justify-between">
                <h3 className="font-semibold">{p.label}</h3>
                {isCurrent && <span className="text-xs font-medium text-indigo-700 dark:text-indigo-300">Current plan</span>}
              </div>
              {p.limits}
              {!isCurrent && (
                <button type="button" className={buttonClass("secondary", "mt-3 w-full")} disabled={change.isPending} onClick={() => change.mutate(p.id)}>
                  {change.isPending && change.variables === p.id ? "Switching…" : `Switch to ${p.label}`}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
