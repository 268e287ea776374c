import { NUMERIC_FILTERS } from "@/lib/domain/token-filter";

/**
 * The numeric token filters as form fields, read from the one filter declaration (server side).
 * `group` is the value a field bounds: a minimum and a maximum of the same value form one group.
 */
export type FilterField = { name: string; label: string; min: number; max: number; group: string };

/**
 * The fields in the order a form reads them: the ranges first (each minimum beside its maximum),
 * then the single bounds, each in declaration order.
 */
export function tokenFilterFields(): FilterField[] {
  const entries = Object.entries(NUMERIC_FILTERS);
  const sizes = new Map<string, number>();
  for (const [, f] of entries) sizes.set(f.column, (sizes.get(f.column) ?? 0) + 1);
  const groups = [...new Set(entries.map(([, f]) => f.column))].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
  return groups.flatMap((group) =>
    entries
      .filter(([, f]) => f.column === group)
      .sort(([, a], [, b]) => (a.side === b.side ? 0 : a.side === "min" ? -1 : 1))
      .map(([name, f]) => ({ name, label: f.description, min: f.range[0], max: f.range[1], group })),
  );
}
