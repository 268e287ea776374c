"use client";

import { RISK_FLAGS } from "@/lib/domain/vocab";
import { humanize } from "../format";
import { inputClass, labelClass } from "../ui/button";
import type { FilterField } from "./filter-fields";

export type FilterDraft = Record<string, string>;

/**
 * The controls of the token filter (explorer and alert builder): one number input per numeric
 * condition and a checkbox per risk flag to exclude. Values are strings as typed; "" is unset.
 */
export function FilterInputs({
  fields,
  values,
  onChange,
  idPrefix,
}: {
  fields: FilterField[];
  values: FilterDraft;
  onChange: (name: string, value: string) => void;
  idPrefix: string;
}) {
  const excluded = new Set((values.exclude_flags ?? "").split(",").filter(Boolean));
  const toggleFlag = (flag: string, on: boolean) => {
    const next = RISK_FLAGS.filter((f) => (f === flag ? on : excluded.has(f)));
    onChange("exclude_flags", next.join(","));
  };
  return (
    <div className="space-y-3">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        {fields.map((f) => (
          <div key={f.name} className="flex flex-col justify-end">
            <label htmlFor={`${idPrefix}-${f.name}`} className={labelClass}>
              {f.label}
            </label>
            <input
              id={`${idPrefix}-${f.name}`}
              name={f.name}
              type="number"
              inputMode="decimal"
              step="any"
              min={f.min}
              max={f.max}
              value={values[f.name] ?? ""}
              onChange={(e) => onChange(f.name, e.target.value)}
              placeholder="any"
              className={inputClass}
            />
          </div>
        ))}
      </div>
      <fieldset>
        <legend className={labelClass}>Exclude tokens flagged</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1.5">
          {RISK_FLAGS.map((flag) => (
            <label key={flag} className="inline-flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                name="exclude_flags"
                value={flag}
                checked={excluded.has(flag)}
                onChange={(e) => toggleFlag(flag, e.target.checked)}
                className="size-4 accent-indigo-600"
              />
              {humanize(flag)}
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
