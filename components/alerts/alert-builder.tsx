"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ALERTS_KEY_NAME } from "@/lib/alerts/key-name";
import type { TestEventResult } from "@/lib/alerts/test-event";
import type { AlertKind } from "@/lib/domain/vocab";
import type { Token } from "@/lib/queries/tokens";
import { fetchJson, RequestRefused } from "../fetch-json";
import { formatInteger } from "../format";
import type { FilterField } from "../tokens/filter-fields";
import { type FilterDraft, FilterInputs } from "../tokens/filter-inputs";
import type { Page } from "../types";
import { buttonClass, labelClass } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Input, Select } from "../ui/fields";
import { previewBoxClass } from "../ui/surfaces";
import { useDashboardQuery } from "../use-dashboard-query";
import { useDebounced } from "../use-debounced";
import { useRefreshingMutation } from "../use-refreshing-mutation";
import {
  type Conditions,
  conditionsOf,
  draftOf,
  KIND_DEFAULTS,
  type KindDraft,
  kindConditionsOf,
  kindDraftOf,
  type OtherKind,
  searchOfDraft,
} from "./conditions";
import { refusalInWords } from "./in-words";
import { KindInputs, KindPreview } from "./kind-inputs";

export type BuilderKey = { id: string; name: string; prefix: string };
type AlertBody = {
  name: string;
  kind?: AlertKind;
  conditions: Record<string, unknown>;
  notification_channel: string;
  webhook_url?: string;
};
type NewAlert = { key_id?: string; alert: AlertBody };

const KIND_OPTIONS: [AlertKind, string][] = [
  ["token", "Tokens that match a filter"],
  ["wallet", "A wallet's trades, receipts or launches"],
  ["price", "A token's price"],
  ["smart_money", "Smart-money buys"],
];
const LEGENDS: Record<AlertKind, string> = {
  token: "Fire when a token matches all of",
  wallet: "A wallet's activity: one notification per block with matching events",
  price: "A token's price: at most one notification per 15 minutes",
  smart_money: "Buys by wallets classified smart money: one notification per block with matching buys",
};

const PREVIEW_SIZE = 5;

/** "N tokens match now": the conditions run through GET /v1/tokens's filter, as the alert will. */
function MatchPreview({ draft }: { draft: FilterDraft }) {
  const settled = useDebounced(draft, 300);
  const search = searchOfDraft(settled);
  const empty = search.size === 0;
  search.set("limit", String(PREVIEW_SIZE));
  const query = useDashboardQuery<Page<Token>>(`/api/tokens?${search}`, { enabled: !empty });
  return (
    <div className={previewBoxClass} aria-live="polite">
      {empty ? (
        <p className="text-zinc-600 dark:text-zinc-400">Set at least one condition to see which tokens match.</p>
      ) : query.error ? (
        <p className="text-red-700 dark:text-red-300">{query.error.message}</p>
      ) : query.data ? (
        <>
          <p data-testid="match-count">
            <strong className="tabular-nums">{formatInteger(query.data.total)}</strong>{" "}
            {query.data.total === 1 ? "token matches" : "tokens match"} now
            {query.isFetching && <span className="text-zinc-500"> · updating…</span>}
          </p>
          {query.data.data.length > 0 && (
            <ul className="mt-1 flex flex-wrap gap-x-3 text-xs">
              {query.data.data.map((t) => (
                <li key={t.address}>
                  <Link href={`/tokens/${t.address}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                    {t.symbol}
                  </Link>
                </li>
              ))}
              {query.data.total > PREVIEW_SIZE && (
                <li className="text-zinc-500">and {formatInteger(query.data.total - PREVIEW_SIZE)} more</li>
              )}
            </ul>
          )}
        </>
      ) : (
        <p className="text-zinc-500">Counting…</p>
      )}
    </div>
  );
}

/** A refusal in words, not field names (the API's message names the parameter). */
const inWords = (error: Error, fields: FilterField[]) =>
  refusalInWords(error.message, error instanceof RequestRefused ? error.param : null, fields);

/**
 * "Send a test event": signed with the saved alert's secret and sent to its saved URL now, as a
 * delivery is (POST /api/alerts/{id}/test-event), with how the receiver answered. A new alert
 * has no secret yet, so it takes one once created.
 */
function TestEvent({ alert, url, fields }: { alert?: EditedAlert; url: string; fields: FilterField[] }) {
  const send = useMutation({
    mutationFn: (id: string) => fetchJson<TestEventResult>(`/api/alerts/${id}/test-event`, { method: "POST" }),
  });
  const saved = alert?.notification_channel === "webhook" ? alert.webhook_url : undefined;
  if (!alert || !saved) {
    return (
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Once the alert is saved, send its webhook a test event from here (Edit) to check your receiver.
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <button
        type="button"
        className={buttonClass("secondary")}
        disabled={send.isPending || url !== saved}
        onClick={() => send.mutate(alert.id)}
      >
        {send.isPending ? "Sending a test event…" : "Send a test event"}
      </button>
      <span aria-live="polite" data-testid="test-event-result">
        {url !== saved ? (
          <span className="text-zinc-600 dark:text-zinc-400">
            Save the new URL first: the test event goes to the saved one.
          </span>
        ) : send.error ? (
          <span className="text-red-700 dark:text-red-300">{inWords(send.error, fields)}</span>
        ) : send.data ? (
          <span
            className={
              send.data.delivered ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"
            }
          >
            {send.data.message}
          </span>
        ) : null}
      </span>
    </div>
  );
}

/** An alert as the builder edits it (GET /v1/alerts/{id}'s fields it can change). */
export type EditedAlert = Omit<AlertBody, "kind" | "conditions"> & {
  id: string;
  kind: AlertKind;
  conditions: Conditions;
};

/**
 * Builds a new alert, or edits `editing` (PATCH: name, conditions, channel). A new alert goes
 * under the chosen key; an account without keys gets one made for its alerts.
 */
export function AlertBuilder({
  fields,
  keys,
  webhooks,
  smartMoney,
  email,
  editing,
  onDone,
}: {
  fields: FilterField[];
  keys: BuilderKey[];
  webhooks: boolean;
  /** Whether the plan has smart-money alerts. */
  smartMoney: boolean;
  email: string | null;
  editing?: EditedAlert;
  onDone?: () => void;
}) {
  const [name, setName] = useState(editing?.name ?? "");
  const [keyId, setKeyId] = useState(keys[0]?.id ?? "");
  const [kind, setKind] = useState<AlertKind>(editing?.kind ?? "token");
  const [draft, setDraft] = useState<FilterDraft>(() => (editing?.kind === "token" ? draftOf(editing.conditions) : {}));
  const [kindDrafts, setKindDrafts] = useState<Record<OtherKind, KindDraft>>(() => ({
    ...KIND_DEFAULTS,
    ...(editing && editing.kind !== "token" ? { [editing.kind]: kindDraftOf(editing.kind, editing.conditions) } : {}),
  }));
  const [channel, setChannel] = useState(editing?.notification_channel ?? "email");
  const [webhookUrl, setWebhookUrl] = useState(editing?.webhook_url ?? "");
  const save = useRefreshingMutation<NewAlert>((body) =>
    editing
      ? { url: `/api/alerts/${editing.id}`, method: "PATCH", body: body.alert }
      : { url: "/api/alerts", method: "POST", body },
  );
  const idPrefix = editing ? `alert-${editing.id}` : "alert";

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        const conditions = kind === "token" ? conditionsOf(draft) : kindConditionsOf(kind, kindDrafts[kind]);
        // A token filter is sent without a kind on creation, as the spec's alerts are; an edit names it.
        const named = kind !== "token" || editing ? { kind } : {};
        const alert: AlertBody = { name, ...named, conditions, notification_channel: channel };
        if (channel === "webhook") alert.webhook_url = webhookUrl;
        save.mutate(keyId ? { key_id: keyId, alert } : { alert }, {
          onSuccess: () => {
            if (!editing) setName(""), setDraft({}), setKindDrafts(KIND_DEFAULTS);
            onDone?.();
          },
        });
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${idPrefix}-name`} className={labelClass}>
            Alert name
          </label>
          <Input
            id={`${idPrefix}-name`}
            required
            maxLength={200}
            value={name}
            onChange={setName}
            placeholder="fresh and liquid"
          />
        </div>
        {!editing &&
          (keys.length ? (
            <div>
              <label htmlFor="alert-key" className={labelClass}>
                API key it belongs to
              </label>
              <Select id="alert-key" value={keyId} onChange={setKeyId}>
                {keys.map((k) => (
                  <option key={k.id} value={k.id}>
                    {k.name} ({k.prefix}…)
                  </option>
                ))}
              </Select>
            </div>
          ) : (
            <p className="self-end text-xs text-zinc-600 dark:text-zinc-400">
              Alerts belong to an API key, as in the API. You have none, so this alert goes under a new key named “
              {ALERTS_KEY_NAME}” (rotate it on the{" "}
              <Link href="/keys" className="text-indigo-700 underline dark:text-indigo-300">
                keys page
              </Link>{" "}
              to manage alerts from a script).
            </p>
          ))}
      </div>
      <div className="sm:w-1/2">
        <label htmlFor={`${idPrefix}-kind`} className={labelClass}>
          Watch
        </label>
        <Select id={`${idPrefix}-kind`} value={kind} onChange={(k) => setKind(k as AlertKind)}>
          {KIND_OPTIONS.map(([value, label]) => (
            <option
              key={value}
              value={value}
              disabled={value === "smart_money" && !smartMoney && editing?.kind !== value}
            >
              {label}
              {value === "smart_money" && !smartMoney ? " (Pro and API Tier)" : ""}
            </option>
          ))}
        </Select>
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-medium">{LEGENDS[kind]}</legend>
        {kind === "token" ? (
          <FilterInputs
            fields={fields}
            values={draft}
            onChange={(field, value) => setDraft((d) => ({ ...d, [field]: value }))}
            idPrefix={idPrefix}
          />
        ) : (
          <KindInputs
            kind={kind}
            draft={kindDrafts[kind]}
            onChange={(field, value) => setKindDrafts((all) => ({ ...all, [kind]: { ...all[kind], [field]: value } }))}
            idPrefix={idPrefix}
          />
        )}
      </fieldset>
      {kind === "token" ? <MatchPreview draft={draft} /> : <KindPreview kind={kind} draft={kindDrafts[kind]} />}
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${idPrefix}-channel`} className={labelClass}>
            Deliver by
          </label>
          <Select id={`${idPrefix}-channel`} value={channel} onChange={setChannel}>
            <option value="email">Email{email ? ` to ${email}` : ""}</option>
            <option value="webhook" disabled={!webhooks}>
              Webhook{webhooks ? "" : " (Pro and API Tier)"}
            </option>
          </Select>
        </div>
        {channel === "webhook" && (
          <div>
            <label htmlFor={`${idPrefix}-webhook`} className={labelClass}>
              Webhook URL
            </label>
            <Input
              id={`${idPrefix}-webhook`}
              type="url"
              required
              value={webhookUrl}
              onChange={setWebhookUrl}
              placeholder="https://example.com/hooks/alerts"
            />
          </div>
        )}
      </div>
      {save.error && <ErrorMessage>{inWords(save.error, fields)}</ErrorMessage>}
      {channel === "webhook" && <TestEvent alert={editing} url={webhookUrl} fields={fields} />}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass("primary")} disabled={save.isPending}>
          {editing ? (save.isPending ? "Saving…" : "Save changes") : save.isPending ? "Creating…" : "Create alert"}
        </button>
        {editing && (
          <button type="button" className={buttonClass("secondary")} onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
