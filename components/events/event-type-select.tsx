import type { EventType } from "@/lib/domain/vocab";
import { humanize } from "../format";
import { labelClass } from "../ui/button";
import { Select } from "../ui/fields";

/** The event type filter of the events stream and of a wallet's history. */
export function EventTypeSelect({
  id,
  label,
  types,
  value,
  onChange,
}: {
  id: string;
  label: string;
  types: readonly EventType[];
  value: string;
  onChange: (type: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <Select id={id} value={value} onChange={onChange}>
        <option value="">All types</option>
        {types.map((t) => (
          <option key={t} value={t}>
            {humanize(t)}
          </option>
        ))}
      </Select>
    </div>
  );
}
