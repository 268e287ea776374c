import { z } from "zod";
import { invalidParam } from "./errors";

const MAX_BODY_BYTES = 64 * 1024;

/** The parameter an error names: for query strings the parameter itself, for bodies the JSON path. */
function firstIssue(error: z.ZodError, fallbackParam: string, depth = Infinity) {
  const issue = error.issues[0];
  const param = issue.path.length ? issue.path.slice(0, depth).join(".") : fallbackParam;
  return invalidParam(param, `${param}: ${issue.message}`);
}

/**
 * Parses the query string against a schema of string fields. Unknown and repeated parameters
 * are errors, so a typo never silently widens a filter.
 */
export function parseQuery<S extends z.ZodObject>(url: URL, schema: S): z.output<S> {
  const values: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (!(name in schema.shape)) throw invalidParam(name, `Unknown query parameter: ${name}.`);
    if (name in values) throw invalidParam(name, `Query parameter given more than once: ${name}.`);
    values[name] = value;
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw firstIssue(parsed.error, "query", 1);
  return parsed.data;
}

export function parsePath<S extends z.ZodType>(value: string, schema: S, param: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidParam(param, `${param}: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

export async function parseBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw invalidParam("body", "Request body is larger than 64 KiB.");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidParam("body", "Request body must be valid JSON.");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw firstIssue(parsed.error, "body");
  return parsed.data;
}
