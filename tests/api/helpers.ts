import { inject } from "vitest";
import type { z } from "zod";
import { connect, createDb, type Db } from "@/db/client";
import type { Plan } from "@/lib/domain/vocab";
import { createKey, ensureAccount } from "@/lib/keys/store";

export const baseUrl = () => inject("baseUrl");

let db: Db | undefined;
/** Direct access to the test database, for fixtures and for checking what the API wrote. */
export function testDb(): Db {
  db ??= createDb(connect(inject("databaseUrl"), { max: 4 }));
  return db;
}

/** A new account with one key; every test that counts requests gets its own. */
export async function newKey(plan: Plan = "api_tier", email?: string) {
  const accountId = await ensureAccount(testDb(), email ?? null, plan);
  return createKey(testDb(), accountId, `test ${plan}`);
}

let shared: Promise<string> | undefined;
/** An API Tier key for tests that do not count requests. */
export const sharedKey = () => (shared ??= newKey("api_tier").then((k) => k.key));

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T };

export async function api<T = any>(
  path: string,
  opts: {
    key?: string | null;
    method?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse<T>> {
  const key = opts.key === undefined ? await sharedKey() : opts.key;
  const headers: Record<string, string> = { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...opts.headers };
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["Content-Type"] = "application/json";
  }
  const res = await fetch(`${baseUrl()}${path}`, { method: opts.method ?? "GET", headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? parseJson(text) : null) as T };
}

/** A body that is not JSON is kept as text, so an assertion can show what came back. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { not_json: text.slice(0, 300) };
  }
}

/** Asserts the error contract: status, code, the error body, the request id header. */
export function expectError(res: ApiResponse, status: number, code: string, param?: string) {
  const problems: string[] = [];
  if (res.status !== status) problems.push(`status ${res.status} != ${status}: ${JSON.stringify(res.body)}`);
  const e = res.body?.error;
  if (!e || e.code !== code) problems.push(`code ${e?.code} != ${code}`);
  if (e && typeof e.message !== "string") problems.push("message missing");
  if (e && e.request_id !== res.headers.get("x-request-id")) problems.push("request_id differs from X-Request-Id");
  if (param !== undefined && e?.param !== param) problems.push(`param ${e?.param} != ${param}`);
  if (problems.length) throw new Error(problems.join("; "));
}

/** Parses a body with its response schema: a missing or mistyped field fails. */
export function expectShape<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`response does not match its schema: ${parsed.error.message}`);
  return parsed.data;
}
