"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { describeEvent, usd } from "@/lib/alerts/describe";
import type { AlertPreview } from "@/lib/alerts/preview";
import {
  PRICE_MOVES,
  PRICE_SIDES,
  PRICE_WINDOW_NAMES,
  PRICE_WINDOWS,
  WALLET_ACTIONS,
} from "@/lib/domain/alert-conditions";
import { fetchJson } from "../fetch-json";
import { formatDateTime, formatInteger } from "../format";
import { inputClass, labelClass } from "../ui/button";
import { CheckboxGroup, Input, Select } from "../ui/fields";
import { previewBoxClass } from "../ui/surfaces";
import { useDebounced } from "../use-debounced";
import { type KindDraft, kindConditionsOf, kindDraftReady, type OtherKind } from "./conditions";

const ACTION_LABELS = { buy: "Buys", sell: "Sells", receive: "Receives", launch: "Launches a token" } as const;
const MOVE_LABELS = { up: "up", down: "down", either: "up or down" } as const;

type Change = (field: string, value: string) => void;

function Field({ id, label, children }: { id: string; label: string; children: (id: string) => React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col justify-end">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}

function TextInput({
  id,
  field,
  draft,
  onChange,
  placeholder,
  number = false,
}: {
  id: string;
  field: string;
  draft: KindDraft;
  onChange: Change;
  placeholder: string;
  number?: boolean;
}) {
  return (
    <Input
      id={id}
      name={field}
      type={number ? "number" : "text"}
      inputMode={number ? "decimal" : undefined}
      step={number ? "any" : undefined}
      min={number ? 0 : undefined}
      value={draft[field] ?? ""}
      onChange={(v) => onChange(field, v)}
      placeholder={placeholder}
      spellCheck={false}
      className={`${inputClass} ${number ? "" : "font-mono"}`}
    />
  );
}

/** One of a draft's fields, chosen from `options`. */
function DraftSelect({
  id,
  field,
  draft,
  onChange,
  options,
}: {
  id: string;
  field: string;
  draft: KindDraft;
  onChange: Change;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <Select id={id} name={field} value={draft[field] ?? ""} onChange={(v) => onChange(field, v)}>
      {options.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </Select>
  );
}

function WalletInputs({ draft, onChange, idPrefix }: { draft: KindDraft; onChange: Change; idPrefix: string }) {
  const actions = new Set((draft.actions ?? "").split(",").filter(Boolean));
  return (
    <div className="space-y-3">
      <Field id={`${idPrefix}-wallet`} label="Wallet address">
        {(id) => <TextInput id={id} field="wallet_address" draft={draft} onChange={onChange} placeholder="0x…" />}
      </Field>
      <CheckboxGroup
        legend="Fire when the wallet"
        name="actions"
        options={WALLET_ACTIONS}
        label={(action) => ACTION_LABELS[action]}
        selected={actions}
        onChange={(chosen) => onChange("actions", chosen.join(","))}
      />
      <TokenAndAmount draft={draft} onChange={onChange} idPrefix={idPrefix} />
    </div>
  );
}

function TokenAndAmount({ draft, onChange, idPrefix }: { draft: KindDraft; onChange: Change; idPrefix: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field id={`${idPrefix}-token`} label="Token address (empty: any token)">
        {(id) => <TextInput id={id} field="token_address" draft={draft} onChange={onChange} placeholder="any token" />}
      </Field>
      <Field id={`${idPrefix}-min-usd`} label="Worth at least (USD)">
        {(id) => (
          <TextInput id={id} field="min_amount_usd" draft={draft} onChange={onChange} placeholder="any" number />
        )}
      </Field>
    </div>
  );
}

function PriceInputs({ draft, onChange, idPrefix }: { draft: KindDraft; onChange: Change; idPrefix: string }) {
  const moves = draft.mode === "moves";
  return (
    <div className="space-y-3">
      <Field id={`${idPrefix}-token`} label="Token address">
        {(id) => <TextInput id={id} field="token_address" draft={draft} onChange={onChange} placeholder="0x…" />}
      </Field>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Field id={`${idPrefix}-mode`} label="Fire when the price">
          {(id) => (
            <DraftSelect
              id={id}
              field="mode"
              draft={draft}
              onChange={onChange}
              options={[
                ["crosses", "reaches a level"],
                ["moves", "moves by a percentage"],
              ]}
            />
          )}
        </Field>
        {moves ? (
          <>
            <Field id={`${idPrefix}-moves`} label="Direction">
              {(id) => (
                <DraftSelect
                  id={id}
                  field="moves"
                  draft={draft}
                  onChange={onChange}
                  options={PRICE_MOVES.map((m) => [m, MOVE_LABELS[m]])}
                />
              )}
            </Field>
            <Field id={`${idPrefix}-change`} label="By at least (%)">
              {(id) => (
                <TextInput id={id} field="change_pct" draft={draft} onChange={onChange} placeholder="20" number />
              )}
            </Field>
            <Field id={`${idPrefix}-window`} label="Within">
              {(id) => (
                <DraftSelect
                  id={id}
                  field="window"
                  draft={draft}
                  onChange={onChange}
                  options={PRICE_WINDOW_NAMES.map((w) => [w, PRICE_WINDOWS[w].label])}
                />
              )}
            </Field>
          </>
        ) : (
          <>
            <Field id={`${idPrefix}-side`} label="Side">
              {(id) => (
                <DraftSelect
                  id={id}
                  field="crosses"
                  draft={draft}
                  onChange={onChange}
                  options={PRICE_SIDES.map((s) => [s, `${s} the level`])}
                />
              )}
            </Field>
            <Field id={`${idPrefix}-level`} label="Level (USD)">
              {(id) => (
                <TextInput id={id} field="price_usd" draft={draft} onChange={onChange} placeholder="0.01" number />
              )}
            </Field>
          </>
        )}
      </div>
    </div>
  );
}

/** The inputs of a wallet, price or smart-money alert. */
export function KindInputs({
  kind,
  draft,
  onChange,
  idPrefix,
}: {
  kind: OtherKind;
  draft: KindDraft;
  onChange: Change;
  idPrefix: string;
}) {
  if (kind === "wallet") return <WalletInputs draft={draft} onChange={onChange} idPrefix={idPrefix} />;
  if (kind === "price") return <PriceInputs draft={draft} onChange={onChange} idPrefix={idPrefix} />;
  return <TokenAndAmount draft={draft} onChange={onChange} idPrefix={idPrefix} />;
}

const PREVIEW_ROWS = 5;
const plural = (n: number, one: string) => `${formatInteger(n)} ${one}${n === 1 ? "" : "s"}`;

/**
 * "Over the last day it would have sent N notifications": the draft run over the last 24 h of
 * chain time by POST /api/alerts/preview (the worker's own match, the price's replay).
 */
export function KindPreview({ kind, draft }: { kind: OtherKind; draft: KindDraft }) {
  const settled = useDebounced({ kind, draft }, 400);
  const ready = kindDraftReady(settled.kind, settled.draft);
  const body = { kind: settled.kind, conditions: kindConditionsOf(settled.kind, settled.draft) };
  const query = useQuery({
    queryKey: ["alert-preview", JSON.stringify(body)],
    queryFn: () => fetchJson<AlertPreview>("/api/alerts/preview", { method: "POST", body }),
    enabled: ready,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const p = query.data;
  return (
    <div className={previewBoxClass} aria-live="polite">
      {!ready ? (
        <p className="text-zinc-600 dark:text-zinc-400">
          Fill in the conditions to see what this alert would have sent over the last day.
        </p>
      ) : query.error ? (
        <p className="text-red-700 dark:text-red-300">{query.error.message}</p>
      ) : p ? (
        <>
          <p data-testid="preview-count">
            Over the last 24 h it would have sent{" "}
            <strong className="tabular-nums">{plural(p.notifications, "notification")}</strong>
            {p.total_events > 0 && <> about {plural(p.total_events, "event")}</>}
            {query.isFetching && <span className="text-zinc-500"> · updating…</span>}
          </p>
          <ul className="mt-1 space-y-0.5 text-xs">
            {p.events.slice(0, PREVIEW_ROWS).map((e) => (
              <li key={e.id}>
                <span className="text-zinc-500">{formatDateTime(e.timestamp)}</span>{" "}
                <Link
                  href={`/tokens/${e.token_address}`}
                  className="text-indigo-700 hover:underline dark:text-indigo-300"
                >
                  {describeEvent(e, e.symbol || "a token")}
                </Link>
              </li>
            ))}
            {p.firings.slice(0, PREVIEW_ROWS).map((f) => (
              <li key={f.at}>
                <span className="text-zinc-500">{formatDateTime(f.at)}</span> price {usd(f.price_usd)}
                {f.change_pct !== null && ` (${f.change_pct > 0 ? "+" : ""}${f.change_pct.toFixed(1)}%)`}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="text-zinc-500">Looking back over the last day…</p>
      )}
    </div>
  );
}
