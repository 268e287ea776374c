import { TableHead } from "../ui/table";
import { CodeSpans } from "./code-spans";
import type { Schema } from "./openapi-types";
import { SchemaType, schemaRules } from "./schema-type";

/** An object schema's fields: name, type, required, meaning and rules. */
export function SchemaFields({ schema }: { schema: Schema }) {
  const properties = Object.entries(schema.properties ?? {});
  if (!properties.length) return <p className="text-sm">{<SchemaType schema={schema} />}</p>;
  const required = new Set(schema.required ?? []);
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[560px] text-sm">
        <TableHead cells={[{ label: "Field", className: "w-48" }, { label: "Type", className: "w-48" }, "Meaning"]} />
        <tbody>
          {properties.map(([name, field]) => (
            <tr key={name} className="border-t border-zinc-100 align-top dark:border-zinc-800">
              <td className="px-3 py-1.5 font-mono">
                {name}
                {!required.has(name) && <span className="ml-1 font-sans text-xs text-zinc-500">optional</span>}
              </td>
              <td className="px-3 py-1.5">
                <SchemaType schema={field} />
              </td>
              <td className="px-3 py-1.5 text-zinc-700 dark:text-zinc-300">
                <CodeSpans text={field.description ?? ""} />
                {schemaRules(field).length > 0 && (
                  <span className="block text-xs text-zinc-500">{schemaRules(field).join("; ")}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
