"use client";

import { type ChangeEvent, type ComponentProps, useEffect, useEffectEvent, useRef } from "react";
import { inputClass } from "./button";

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
