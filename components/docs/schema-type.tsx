import { Fragment, type ReactNode } from "react";
import { refName, type Schema, schemaAnchor } from "./openapi-types";

/** A schema's type in a few words: a link for a named schema, "array of …", the allowed values. */
export function SchemaType({ schema }: { schema: Schema }): ReactNode {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return (
      <a href={`#${schemaAnchor(name)}`} className="font-mono text-indigo-700 hover:underline dark:text-indigo-300">
        {name}
      </a>
    );
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    return variants.map((v, i) => (
      <Fragment key={i}>
        {i > 0 && " or "}
        <SchemaType schema={v} />
      </Fragment>
    ));
  }
  if (schema.items) {
    return (
      <>
        array of <SchemaType schema={schema.items} />
      </>
    );
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : (schema.type ?? "any");
  return (
    <span className="font-mono">
      {type}
      {schema.format && ` (${schema.format})`}
    </span>
  );
}

/** The constraints that a reader needs: allowed values, ranges, lengths, default. */
export function schemaRules(schema: Schema): string[] {
  const rules: string[] = [];
  const values = schema.enum ?? schema.items?.enum;
  if (values) rules.push(`one of ${values.join(", ")}`);
  const safeInt = (n: number | undefined) => n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER;
  if (safeInt(schema.minimum) && safeInt(schema.maximum)) rules.push(`${schema.minimum} to ${schema.maximum}`);
  else if (safeInt(schema.minimum)) rules.push(`at least ${schema.minimum}`);
  else if (safeInt(schema.maximum)) rules.push(`at most ${schema.maximum}`);
  if (schema.maxLength !== undefined) rules.push(`${schema.minLength ?? 0} to ${schema.maxLength} characters`);
  if (schema.minItems) rules.push(`at least ${schema.minItems} item${schema.minItems > 1 ? "s" : ""}`);
  if (schema.default !== undefined) rules.push(`default ${JSON.stringify(schema.default)}`);
  return rules;
}
