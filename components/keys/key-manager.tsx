"use client";

import { useState } from "react";
import { RelativeTime } from "../relative-time";
import { Badge } from "../ui/badge";
import { buttonClass, labelClass } from "../ui/button";
import { ConfirmButton } from "../ui/confirm-button";
import { EmptyState } from "../ui/empty-state";
import { ErrorMessage } from "../ui/error-message";
import { Input } from "../ui/fields";
import { panelClass, warningClass } from "../ui/surfaces";
import { rowClass, TableFrame, TableHead, tdClass } from "../ui/table";
import { useRefreshingMutation } from "../use-refreshing-mutation";
import { SecretReveal } from "./secret-reveal";

export type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** Set while the plan allows fewer live keys than the account holds (lib/keys/store.ts, applyKeyCap). */
  disabledAt: string | null;
};
/** The plan's caps on keys, for the words around them. */
export type KeyCap = { plan: string; maxKeys: number };
type NewSecret = { key: string; id: string; prefix: string; name: string };

const ROTATE_WARNING =
  "The current secret stops working at once: scripts using it get 401 until they send the new one. " +
  "Its alerts and today's count move to the new key.";
const REVOKE_WARNING = "The key stops working at once, and its alerts stop firing.";

/** Why some live keys do not work: the plan allows fewer than the account holds (after a downgrade). */
function DisabledNote({ cap, disabled }: { cap: KeyCap; disabled: number }) {
  const keys = cap.maxKeys === 1 ? "key" : "keys";
  // The words that agree with the number of disabled keys.
  const [keysAre, them, theyCome] = disabled === 1 ? ["key is", "it", "It comes"] : ["keys are", "them", "They come"];
  return (
    <p className={warningClass} data-testid="keys-disabled">
      Your {cap.plan} plan allows {cap.maxKeys} live {keys}, so your {disabled} newest {keysAre} disabled: the API
      refuses {them} (403), but nothing is deleted. {theyCome} back when you upgrade, or when you revoke older keys to
      make room.
    </p>
  );
}

/**
 * The account's live keys, with rotation (a new secret, the old one revoked at once) and
 * revocation; revoked keys are listed apart, so a rotated key never shows beside its replacement
 * under the same name. Keys the plan's cap disabled are marked, and cannot be rotated.
 */
export function KeyManager({ keys, cap }: { keys: KeyRow[]; cap: KeyCap }) {
  const [name, setName] = useState("");
  const [revealed, setRevealed] = useState<NewSecret | null>(null);
  const create = useRefreshingMutation<string, NewSecret>((keyName) => ({
    url: "/api/keys",
    method: "POST",
    body: { name: keyName },
  }));
  const rotate = useRefreshingMutation<string, NewSecret>((id) => ({ url: `/api/keys/${id}/rotate`, method: "POST" }));
  const revoke = useRefreshingMutation<string>((id) => ({ url: `/api/keys/${id}`, method: "DELETE" }));
  const error = create.error ?? rotate.error ?? revoke.error;
  const live = keys.filter((k) => !k.revokedAt);
  const revoked = keys.filter((k) => k.revokedAt);
  const disabled = live.filter((k) => k.disabledAt).length;

  return (
    <div className="space-y-4">
      <form
        className={`flex flex-wrap items-end gap-3 ${panelClass} p-4`}
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(name, { onSuccess: (k) => (setRevealed(k), setName("")) });
        }}
      >
        <div className="min-w-0 flex-1 basis-64">
          <label htmlFor="key-name" className={labelClass}>
            Key name
          </label>
          <Input id="key-name" required maxLength={100} value={name} onChange={setName} placeholder="trading bot" />
        </div>
        <button type="submit" className={buttonClass("primary")} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>

      {revealed && <SecretReveal name={revealed.name} secret={revealed.key} onDone={() => setRevealed(null)} />}
      {error && <ErrorMessage>{error.message}</ErrorMessage>}
      {disabled > 0 && <DisabledNote cap={cap} disabled={disabled} />}

      {live.length === 0 ? (
        <EmptyState title="No live API keys.">
          Create one to call the API; it starts on your account&apos;s plan.
        </EmptyState>
      ) : (
        <TableFrame label="API keys">
          <table className="w-full min-w-[720px] text-sm">
            <TableHead cells={["Name", "Key", "Created", "Last used", { label: "Actions", srOnly: true }]} />
            <tbody>
              {live.map((k) => (
                <tr key={k.id} data-key-id={k.id} className={rowClass}>
                  <td className={`${tdClass} font-medium`}>
                    {k.name}{" "}
                    {k.disabledAt && (
                      <Badge
                        tone="warn"
                        title={
                          `Beyond the ${cap.plan} plan's ${cap.maxKeys} live keys: ` +
                          "refused by the API until there is room"
                        }
                      >
                        disabled
                      </Badge>
                    )}
                  </td>
                  <td className={`${tdClass} font-mono`}>{k.prefix}…</td>
                  <td className={tdClass}>
                    <RelativeTime iso={k.createdAt} />
                  </td>
                  <td className={tdClass}>{k.lastUsedAt ? <RelativeTime iso={k.lastUsedAt} /> : "never"}</td>
                  <td className={`${tdClass} text-right`}>
                    <span className="inline-flex flex-wrap justify-end gap-2">
                      {!k.disabledAt && (
                        <ConfirmButton
                          label="Rotate"
                          confirmLabel={`Rotate ${k.name}`}
                          warning={ROTATE_WARNING}
                          disabled={rotate.isPending}
                          onConfirm={() => rotate.mutate(k.id, { onSuccess: setRevealed })}
                        />
                      )}
                      <ConfirmButton
                        label="Revoke"
                        confirmLabel={`Revoke ${k.name}`}
                        warning={REVOKE_WARNING}
                        disabled={revoke.isPending}
                        onConfirm={() => revoke.mutate(k.id)}
                      />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}

      {revoked.length > 0 && (
        <details className={`${panelClass} p-4 text-sm`}>
          <summary className="cursor-pointer font-medium">
            Revoked keys ({revoked.length}): rotated or revoked, refused by the API
          </summary>
          <div className="mt-3">
            <TableFrame label="Revoked API keys">
              <table className="w-full min-w-[560px] text-sm text-zinc-500 dark:text-zinc-400">
                <TableHead cells={["Name", "Key", "Created", "Revoked"]} />
                <tbody>
                  {revoked.map((k) => (
                    <tr key={k.id} data-key-id={k.id} className={rowClass}>
                      <td className={tdClass}>
                        {k.name} <Badge>revoked</Badge>
                      </td>
                      <td className={`${tdClass} font-mono line-through`}>{k.prefix}…</td>
                      <td className={tdClass}>
                        <RelativeTime iso={k.createdAt} />
                      </td>
                      <td className={tdClass}>
                        <RelativeTime iso={k.revokedAt!} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
          </div>
        </details>
      )}
    </div>
  );
}
