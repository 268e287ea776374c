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
  return Object.fromEntries(Object.entries(conditions).map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : String(value)]));
}

/** The same draft as GET /v1/tokens's query string, for the "match now" preview. */
export function searchOfDraft(draft: FilterDraft): URLSearchParams {
  return new URLSearchParams(Object.entries(draft).filter(([, v]) => v));
}

/** Stored conditions in words, one per condition, labelled as the builder labels them. */
export function describeConditions(conditions: Conditions, fields: FilterField[]): string[] {
  return Object.entries(conditions).map(([name, value]) => {
    if (Array.isArray(value)) return `Excluding ${value.map(humanize).join(", ")}`;
    const label = fields.find((f) => f.name === name)?.label ?? humanize(name);
    return `${label}: ${formatInteger(value)}`;
  });
}
