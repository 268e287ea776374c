"use client";

import { useState } from "react";
import { RelativeTime } from "../relative-time";
import { Badge } from "../ui/badge";
import { buttonClass, inputClass, labelClass } from "../ui/button";
import { ConfirmButton } from "../ui/confirm-button";
import { EmptyState } from "../ui/empty-state";
import { ErrorMessage } from "../ui/error-message";
import { rowClass, TableFrame, tdClass, thClass } from "../ui/table";
import { useRefreshingMutation } from "../use-refreshing-mutation";
import { SecretReveal } from "./secret-reveal";

export type KeyRow = { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null };
type NewSecret = { key: string; id: string; prefix: string; name: string };

export function KeyManager({ keys }: { keys: KeyRow[] }) {
  const [name, setName] = useState("");
  const [revealed, setRevealed] = useState<NewSecret | null>(null);
  const create = useRefreshingMutation<string, NewSecret>((keyName) => ({ url: "/api/keys", method: "POST", body: { name: keyName } }));
  const rotate = useRefreshingMutation<string, NewSecret>((id) => ({ url: `/api/keys/${id}/rotate`, method: "POST" }));
  const revoke = useRefreshingMutation<string>((id) => ({ url: `/api/keys/${id}`, method: "DELETE" }));
  const error = create.error ?? rotate.error ?? revoke.error;

  return (
    <div className="space-y-4">
      <form
        className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(name, { onSuccess: (k) => (setRevealed(k), setName("")) });
        }}
      >
        <div className="min-w-0 flex-1 basis-64">
          <label htmlFor="key-name" className={labelClass}>
            Key name
          </label>
          <input
            id="key-name"
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="trading bot"
            className={inputClass}
          />
        </div>
        <button type="submit" className={buttonClass("primary")} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>

      {revealed && <SecretReveal name={revealed.name} secret={revealed.key} onDone={() => setRevealed(null)} />}
      {error && <ErrorMessage>{error.message}</ErrorMessage>}

      {keys.length === 0 ? (
        <EmptyState title="No API keys yet.">Create one to call the API; it starts on your account's plan.</EmptyState>
      ) : (
        <TableFrame label="API keys">
          <table className="w-full min-w-[720px] text-sm">
            <thead>
              <tr>
                <th scope="col" className={thClass}>
                  Name
                </th>
                <th scope="col" className={thClass}>
                  Key
                </th>
                <th scope="col" className={thClass}>
                  Created
                </th>
                <th scope="col" className={thClass}>
                  Last used
                </th>
                <th scope="col" className={thClass}>
                  Status
                </th>
                <th scope="col" className={thClass}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-key-id={k.id} className={`${rowClass} ${k.revokedAt ? "text-zinc-400 dark:text-zinc-500" : ""}`}>
                  <td className={`${tdClass} font-medium`}>{k.name}</td>
                  <td className={`${tdClass} font-mono`}>{k.prefix}…</td>
                  <td className={tdClass}>
                    <RelativeTime iso={k.createdAt} />
                  </td>
                  <td className={tdClass}>{k.lastUsedAt ? <RelativeTime iso={k.lastUsedAt} /> : "never"}</td>
                  <td className={tdClass}>{k.revokedAt ? <Badge>revoked</Badge> : <Badge tone="good">active</Badge>}</td>
                  <td className={`${tdClass} text-right`}>
                    {!k.revokedAt && (
                      <span className="inline-flex flex-wrap justify-end gap-2">
                        <ConfirmButton
                          label="Rotate"
                          confirmLabel={`Rotate ${k.name}`}
                          disabled={rotate.isPending}
                          onConfirm={() => rotate.mutate(k.id, { onSuccess: setRevealed })}
                        />
                        <ConfirmButton label="Revoke" confirmLabel={`Revoke ${k.name}`} disabled={revoke.isPending} onConfirm={() => revoke.mutate(k.id)} />
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}
    </div>
  );
}
