import { type NumericFilterName, type TokenFilter, tokenFilterConflict } from "@/lib/domain/token-filter";
import { formatInteger } from "../format";
import type { FilterField } from "./filter-fields";
import type { FilterDraft } from "./filter-inputs";

/**
 * Why each typed filter value would be refused, by field name, checked as the API checks it
 * (each field's range from the filter's one declaration, then tokenFilterConflict): the
 * explorer keeps a refused value out of the URL and says why, instead of asking the API.
 */
export function draftProblems(draft: FilterDraft, fields: FilterField[]): Record<string, string> {
  const problems: Record<string, string> = {};
  const parsed: TokenFilter = {};
  for (const f of fields) {
    const raw = draft[f.name]?.trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!Number.isFinite(value)) problems[f.name] = "Enter a number.";
    else if (value < f.min || value > f.max)
      problems[f.name] = `Must be between ${formatInteger(f.min)} and ${formatInteger(f.max)}.`;
    else parsed[f.name as NumericFilterName] = value;
  }
  const conflict = tokenFilterConflict(parsed);
  if (conflict) {
    const other = fields.find((f) => conflict.message.includes(f.name));
    problems[conflict.param] = other ? `Must not exceed the ${other.label.toLowerCase()}.` : conflict.message;
  }
  return problems;
}
