import { describeAlertConditions } from "@/lib/alerts/describe";
import type { AlertConditions } from "@/lib/domain/alert-conditions";
import type { AlertKind } from "@/lib/domain/vocab";
import { formatInteger, humanize } from "../format";
import type { FilterField } from "../tokens/filter-fields";
import type { FilterDraft } from "../tokens/filter-inputs";

export type Conditions = Record<string, number | string[]>;

/** The builder's draft as alert conditions (POST /v1/alerts's JSON form): numbers and a flag array. */
export function conditionsOf(draft: FilterDraft): Conditions {
  const out: Conditions = {};
  for (const [name, value] of Object.entries(draft)) {
    if (!value) continue;
    out[name] = name === "exclude_flags" ? value.split(",") : Number(value);
  }
  return out;
}

/** Stored conditions as the builder's draft, to edit them. */
export function draftOf(conditions: Conditions): FilterDraft {
  return Object.fromEntries(
    Object.entries(conditions).map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : String(value)]),
  );
}

/** The same draft as GET /v1/tokens's query string, for the "match now" preview. */
export function searchOfDraft(draft: FilterDraft): URLSearchParams {
  return new URLSearchParams(Object.entries(draft).filter(([, v]) => v));
}

/** Stored conditions in words, one per condition, labelled as the builder labels them. */
export function describeConditions(kind: AlertKind, conditions: Conditions, fields: FilterField[]): string[] {
  if (kind !== "token") return describeAlertConditions(kind, conditions as unknown as AlertConditions);
  return Object.entries(conditions).map(([name, value]) => {
    if (Array.isArray(value)) return `Excluding ${value.map(humanize).join(", ")}`;
    const label = fields.find((f) => f.name === name)?.label ?? humanize(name);
    return `${label}: ${formatInteger(value)}`;
  });
}

/** The kinds beside the token filter, whose conditions the builder edits as a KindDraft. */
export type OtherKind = Exclude<AlertKind, "token">;

/**
 * A wallet, price or smart-money alert's conditions as typed: strings, "" unset; `actions` comma
 * separated; a price alert's `mode` says which form it takes (crosses or moves).
 */
export type KindDraft = Record<string, string>;

export const KIND_DEFAULTS: Record<OtherKind, KindDraft> = {
  wallet: { actions: "buy,sell" },
  price: { mode: "crosses", crosses: "above", moves: "up", window: "1h" },
  smart_money: {},
};

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const PRICE_FIELDS = { crosses: ["crosses", "price_usd"], moves: ["moves", "change_pct", "window"] } as const;

/** The draft as the kind's conditions (POST /v1/alerts's JSON form); what is left empty is left out. */
export function kindConditionsOf(kind: OtherKind, d: KindDraft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (field: string, number = false) => {
    const v = d[field]?.trim();
    if (v) out[field] = number ? Number(v) : v;
  };
  if (kind === "wallet") {
    set("wallet_address");
    out.actions = (d.actions ?? "").split(",").filter(Boolean);
  }
  set("token_address");
  if (kind === "price") {
    const mode = d.mode === "moves" ? "moves" : "crosses";
    for (const field of PRICE_FIELDS[mode]) set(field, field === "price_usd" || field === "change_pct");
  } else set("min_amount_usd", true);
  return out;
}

/** Stored conditions of a kind as the builder's draft, to edit them. */
export function kindDraftOf(kind: OtherKind, conditions: Record<string, unknown>): KindDraft {
  const draft: KindDraft = { ...KIND_DEFAULTS[kind] };
  for (const [field, value] of Object.entries(conditions)) {
    draft[field] = Array.isArray(value) ? value.join(",") : String(value);
  }
  if (kind === "price") draft.mode = conditions.moves ? "moves" : "crosses";
  return draft;
}

/** Whether the draft holds what its kind needs, so that a preview is worth asking for. */
export function kindDraftReady(kind: OtherKind, d: KindDraft): boolean {
  const token = d.token_address?.trim() ?? "";
  const anyToken = !token || ADDRESS.test(token);
  const positive = (field: string) => Number(d[field]) > 0;
  if (kind === "wallet") return ADDRESS.test(d.wallet_address?.trim() ?? "") && Boolean(d.actions) && anyToken;
  if (kind === "smart_money") return anyToken;
  const level = d.mode === "moves" ? positive("change_pct") && Boolean(d.window) : positive("price_usd");
  return ADDRESS.test(token) && level;
}
