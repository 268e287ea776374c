import type { EventType } from "@/lib/domain/vocab";
import { humanize } from "../format";
import { inputClass, labelClass } from "../ui/button";

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
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={inputClass}>
        <option value="">All types</option>
        {types.map((t) => (
          <option key={t} value={t}>
            {humanize(t)}
          </option>
        ))}
      </select>
    </div>
  );
}
