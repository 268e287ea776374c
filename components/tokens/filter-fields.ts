import { NUMERIC_FILTERS } from "@/lib/domain/token-filter";

/** The numeric token filters as form fields, read from the one filter declaration (server side). */
export type FilterField = { name: string; label: string; min: number; max: number };

export function tokenFilterFields(): FilterField[] {
  return Object.entries(NUMERIC_FILTERS).map(([name, f]) => ({ name, label: f.description, min: f.range[0], max: f.range[1] }));
}
