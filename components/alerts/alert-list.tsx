"use client";

import { useState } from "react";
import type { AccountAlert } from "@/lib/queries/account-alerts";
import { RelativeTime } from "../relative-time";
import type { FilterField } from "../tokens/filter-fields";
import { Badge } from "../ui/badge";
import { buttonClass } from "../ui/button";
import { ConfirmButton } from "../ui/confirm-button";
import { EmptyState } from "../ui/empty-state";
import { ErrorMessage } from "../ui/error-message";
import { panelClass } from "../ui/surfaces";
import { useRefreshingMutation } from "../use-refreshing-mutation";
import { AlertBuilder } from "./alert-builder";
import { type Conditions, describeConditions } from "./conditions";

const FIGURES_CLASS =
  "mt-3 grid gap-x-6 gap-y-1 text-xs text-zinc-600 sm:grid-cols-2 lg:grid-cols-4 dark:text-zinc-400";

const DELIVERY_TONE = { sent: "good", pending: "warn", failed: "danger" } as const;

/** The account's alerts: pause, resume, edit in place (the builder, PATCH) or delete. */
export function AlertList({
  alerts,
  fields,
  webhooks,
  smartMoney,
  email,
}: {
  alerts: AccountAlert[];
  fields: FilterField[];
  webhooks: boolean;
  smartMoney: boolean;
  email: string | null;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const setStatus = useRefreshingMutation<{ id: string; status: "active" | "paused" }>(({ id, status }) => ({
    url: `/api/alerts/${id}`,
    method: "PATCH",
    body: { status },
  }));
  const remove = useRefreshingMutation<string>((id) => ({ url: `/api/alerts/${id}`, method: "DELETE" }));
  const error = setStatus.error ?? remove.error;

  if (!alerts.length)
    return (
      <EmptyState title="No alerts yet.">Build one above; it fires when tokens newly match its conditions.</EmptyState>
    );
  return (
    <div className="space-y-3">
      {error && <ErrorMessage>{error.message}</ErrorMessage>}
      <ul className="space-y-3">
        {alerts.map((a) => (
          <li key={a.id} data-alert-id={a.id} className={`${panelClass} p-4`}>
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <h3 className="flex flex-wrap items-center gap-2 font-medium">
                  {a.name}
                  <Badge tone={a.status === "active" ? "good" : "neutral"}>{a.status}</Badge>
                </h3>
                <ul className="mt-1 flex flex-wrap gap-1.5 text-xs">
                  {describeConditions(a.kind, a.conditions as Conditions, fields).map((c) => (
                    <li key={c} className="rounded bg-zinc-100 px-1.5 py-0.5 dark:bg-zinc-800">
                      {c}
                    </li>
                  ))}
                </ul>
              </div>
              <div className="flex gap-2">
                <button
                  type="button"
                  className={buttonClass("secondary")}
                  onClick={() => setEditing(editing === a.id ? null : a.id)}
                  aria-expanded={editing === a.id}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className={buttonClass("secondary")}
                  disabled={setStatus.isPending}
                  onClick={() => setStatus.mutate({ id: a.id, status: a.status === "active" ? "paused" : "active" })}
                >
                  {a.status === "active" ? "Pause" : "Resume"}
                </button>
                <ConfirmButton
                  label="Delete"
                  confirmLabel={`Delete ${a.name}`}
                  disabled={remove.isPending}
                  onConfirm={() => remove.mutate(a.id)}
                />
              </div>
            </div>
            {editing === a.id && (
              <div className="mt-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
                <AlertBuilder
                  fields={fields}
                  keys={[]}
                  webhooks={webhooks}
                  smartMoney={smartMoney}
                  email={email}
                  editing={{ ...a, conditions: a.conditions as Conditions }}
                  onDone={() => setEditing(null)}
                />
              </div>
            )}
            <dl className={FIGURES_CLASS}>
              <div>
                <dt className="inline">Last triggered </dt>
                <dd className="inline font-medium text-zinc-900 dark:text-zinc-100">
                  {a.last_triggered_at ? <RelativeTime iso={a.last_triggered_at} /> : "never"}
                </dd>
              </div>
              <div>
                <dt className="inline">Delivery </dt>
                <dd className="inline">{a.notification_channel}</dd>
              </div>
              <div>
                <dt className="inline">Key </dt>
                <dd className="inline">
                  {a.key.name} <span className="font-mono">{a.key.prefix}…</span>
                  {a.key.revoked_at && " (revoked)"}
                </dd>
              </div>
              <div>
                <dt className="inline">Created </dt>
                <dd className="inline">
                  <RelativeTime iso={a.created_at} />
                </dd>
              </div>
            </dl>
            <div className="mt-2 text-xs">
              <p className="text-zinc-500">Recent deliveries</p>
              {a.deliveries.length ? (
                <ul className="mt-1 space-y-0.5">
                  {a.deliveries.map((d) => (
                    <li key={d.id} className="flex flex-wrap items-center gap-2">
                      <Badge tone={DELIVERY_TONE[d.status]}>{d.status}</Badge>
                      <RelativeTime iso={d.sent_at ?? d.created_at} />
                      <span>
                        {d.tokens.length} {d.tokens.length === 1 ? "token" : "tokens"} by {d.channel}
                      </span>
                      {d.last_error && <span className="text-red-700 dark:text-red-300">{d.last_error}</span>}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="mt-0.5 text-zinc-500">none yet</p>
              )}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
