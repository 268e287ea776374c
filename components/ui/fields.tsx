"use client";

import { type ChangeEvent, type ComponentProps, useEffect, useEffectEvent, useRef } from "react";
import { inputClass, labelClass } from "./button";

type Field = HTMLInputElement | HTMLSelectElement;

/**
 * A form field's value kept through hydration. React writes a controlled field's value back at
 * every commit, so what was typed or chosen before the page hydrated (or between the input and
 * change events that hydration ran between) was wiped, and the change event then reported the
 * old value: the token list sorted itself by "trending" when asked for "volume", and a search
 * typed just after a page load went nowhere. Here `value` is written to the field only when
 * `value` changes, and a value the field holds at mount that differs from it is reported.
 */
function useKeptValue<E extends Field>(value: string, onChange: (value: string) => void) {
  const ref = useRef<E>(null);
  const mounted = useRef(false);
  const foundAtMount = useEffectEvent(onChange);
  useEffect(() => {
    const field = ref.current;
    if (!field) return;
    if (!mounted.current) {
      mounted.current = true;
      if (field.value !== value && isEntry(field, value)) foundAtMount(field.value);
      return;
    }
    if (field.value === value) return;
    field.value = value;
    // As React does: a value no option has shows the first option, not a blank.
    if (field instanceof HTMLSelectElement && field.selectedIndex < 0) field.selectedIndex = 0;
  }, [value]);
  return { ref, defaultValue: value, onChange: (e: ChangeEvent<E>) => onChange(e.target.value) };
}

/** Whether the field holds someone's entry: a select shows its first option for a value no option has. */
const isEntry = (field: Field, value: string) =>
  !(field instanceof HTMLSelectElement) || [...field.options].some((o) => o.value === value);

type KeptProps<P> = Omit<P, "value" | "defaultValue" | "onChange" | "ref"> & {
  value: string;
  onChange: (value: string) => void;
};

/** A <select> whose choice survives hydration (useKeptValue). */
export function Select({ value, onChange, className = inputClass, ...props }: KeptProps<ComponentProps<"select">>) {
  return <select {...useKeptValue<HTMLSelectElement>(value, onChange)} className={className} {...props} />;
}

/** A text-like <input> whose entry survives hydration (useKeptValue). */
export function Input({ value, onChange, className = inputClass, ...props }: KeptProps<ComponentProps<"input">>) {
  return <input {...useKeptValue<HTMLInputElement>(value, onChange)} className={className} {...props} />;
}

const boxesIn = (fieldset: HTMLFieldSetElement) => fieldset.querySelectorAll<HTMLInputElement>("input[type=checkbox]");
/** The values of a group's ticked boxes, in the group's order. */
const tickedIn = (fieldset: HTMLFieldSetElement) => [...boxesIn(fieldset)].filter((b) => b.checked).map((b) => b.value);

/**
 * Checkboxes choosing a subset of `options`, kept through hydration as useKeptValue keeps a field:
 * `selected` is written to the boxes only when it changes, and boxes ticked before the page
 * hydrated are reported at mount. A change reports every box as the page shows it, read off the
 * boxes themselves.
 */
export function CheckboxGroup<T extends string>({
  legend,
  name,
  options,
  label,
  selected,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  label: (option: T) => string;
  selected: ReadonlySet<string>;
  onChange: (selected: T[]) => void;
}) {
  const ref = useRef<HTMLFieldSetElement>(null);
  const mounted = useRef(false);
  const foundAtMount = useEffectEvent(onChange);
  // The choice as one string: the effect runs when its members change, not when a new Set is made.
  const chosen = options.filter((o) => selected.has(o)).join(",");
  useEffect(() => {
    const fieldset = ref.current!;
    if (!mounted.current) {
      mounted.current = true;
      const found = tickedIn(fieldset);
      if (found.join(",") !== chosen) foundAtMount(found as T[]);
      return;
    }
    const members = new Set(chosen.split(","));
    for (const box of boxesIn(fieldset)) box.checked = members.has(box.value);
  }, [chosen]);
  return (
    <fieldset ref={ref}>
      <legend className={labelClass}>{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1.5">
        {options.map((option) => (
          <label key={option} className="inline-flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              name={name}
              value={option}
              defaultChecked={selected.has(option)}
              onChange={() => onChange(tickedIn(ref.current!) as T[])}
              className="size-4 accent-indigo-600"
            />
            {label(option)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
