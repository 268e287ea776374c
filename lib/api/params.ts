import type { z } from "zod";
import { ApiError, invalidParam } from "./errors";

const MAX_BODY_BYTES = 64 * 1024;

/**
 * The parameter an error names: for query strings the parameter itself, for bodies the JSON path
 * (under `at`, for a part of a body read on its own).
 */
function firstIssue(error: z.ZodError, fallbackParam: string, depth = Infinity, at: string[] = []) {
  const issue = error.issues[0];
  const path = [...at, ...issue.path.slice(0, depth).map(String)];
  const param = path.length ? path.join(".") : fallbackParam;
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
  if ("cursor" in values && "page" in values)
    throw invalidParam("cursor", "cursor cannot be combined with page: a cursor says where its page starts.");
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw firstIssue(parsed.error, "query", 1);
  return parsed.data;
}

export function parsePath<S extends z.ZodType>(value: string, schema: S, param: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidParam(param, `${param}: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

const tooLarge = () => new ApiError("PAYLOAD_TOO_LARGE", "Request body is larger than 64 KiB.", "body");

/**
 * The request body, read as a stream and given up as soon as it passes 64 KiB (or at once when
 * its Content-Length says so): a large body is never held in memory.
 */
export async function readBodyCapped(req: Request): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function parseBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const text = (await readBodyCapped(req)).toString("utf8");
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

/** A part of a body read with a schema of its own (`param`: where it sits, e.g. "conditions"). */
export function parseBodyPart<S extends z.ZodType>(value: unknown, schema: S, param: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw firstIssue(parsed.error, param, Infinity, [param]);
  return parsed.data;
}
