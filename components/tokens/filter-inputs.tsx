"use client";

import { RISK_FLAGS } from "@/lib/domain/vocab";
import { humanize } from "../format";
import { inputClass, labelClass } from "../ui/button";
import { CheckboxGroup, Input } from "../ui/fields";
import type { FilterField } from "./filter-fields";

export type FilterDraft = Record<string, string>;

/** Consecutive fields of one group (tokenFilterFields keeps a group's fields together). */
function groupsOf(fields: FilterField[]): FilterField[][] {
  const groups: FilterField[][] = [];
  for (const f of fields) {
    const last = groups.at(-1);
    if (last?.[0].group === f.group) last.push(f);
    else groups.push([f]);
  }
  return groups;
}

/**
 * The controls of the token filter (explorer and alert builder): one number input per numeric
 * condition and a checkbox per risk flag to exclude. Values are strings as typed; "" is unset.
 */
export function FilterInputs({
  fields,
  values,
  onChange,
  idPrefix,
  problems = {},
}: {
  fields: FilterField[];
  values: FilterDraft;
  onChange: (name: string, value: string) => void;
  idPrefix: string;
  /** Why a typed value is refused, by field (filter-validation.ts): said under the field. */
  problems?: Record<string, string>;
}) {
  const excluded = new Set((values.exclude_flags ?? "").split(",").filter(Boolean));
  return (
    <div className="space-y-3">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {groupsOf(fields).map((group) => (
          // A minimum and a maximum of one value stand side by side, on a row of their own on a phone.
          <div key={group[0].group} className={group.length > 1 ? "col-span-2 grid grid-cols-2 gap-3" : "grid min-w-0"}>
            {group.map((f) => (
              <div key={f.name} className="flex min-w-0 flex-col justify-end">
                <label htmlFor={`${idPrefix}-${f.name}`} className={labelClass}>
                  {f.label}
                </label>
                <Input
                  id={`${idPrefix}-${f.name}`}
                  name={f.name}
                  type="number"
                  inputMode="decimal"
                  step="any"
                  min={f.min}
                  max={f.max}
                  value={values[f.name] ?? ""}
                  onChange={(v) => onChange(f.name, v)}
                  placeholder="any"
                  aria-invalid={problems[f.name] ? true : undefined}
                  aria-describedby={problems[f.name] ? `${idPrefix}-${f.name}-problem` : undefined}
                  className={`${inputClass} aria-invalid:border-red-500 aria-invalid:ring-red-500`}
                />
                {problems[f.name] && (
                  <p id={`${idPrefix}-${f.name}-problem`} className="mt-1 text-xs text-red-700 dark:text-red-300">
                    {problems[f.name]}
                  </p>
                )}
              </div>
            ))}
          </div>
        ))}
      </div>
      <CheckboxGroup
        legend="Exclude tokens flagged"
        name="exclude_flags"
        options={RISK_FLAGS}
        label={humanize}
        selected={excluded}
        onChange={(flags) => onChange("exclude_flags", flags.join(","))}
      />
    </div>
  );
}
