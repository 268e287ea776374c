import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathItemObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import { errorBodySchema, errorText } from "./errors";
import examples from "./examples.json";
import { alertIdParam } from "./schemas/alerts";
import { addressSchema } from "./schemas/common";
import * as events from "./schemas/events";

/**
 * The OpenAPI document's parts and its assembly. Each operation is declared beside its route
 * (app/v1/<path>/operation.ts, with the helpers here) and collected by app/v1/document.ts.
 */

/** The operations of one path, by method. */
export type PathItem = Pick<ZodOpenApiPathItemObject, "get" | "post" | "patch" | "delete">;

export const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** `ok` and the error responses of an operation: `errors` besides the ones every keyed operation has. */
export function responses(ok: ZodOpenApiResponsesObject, errors: number[]): ZodOpenApiResponsesObject {
  const out: ZodOpenApiResponsesObject = { ...ok };
  // Every keyed operation: a key beyond its account's cap on keys is 403 wherever it is sent.
  for (const code of new Set([400, 401, 403, ...errors, 429, 500]))
    out[String(code) as "400"] = json(errorBodySchema, errorText(code));
  return out;
}

/** An error response of `status` as every operation describes it. */
export const errorResponse = (status: number) => json(errorBodySchema, errorText(status));

export const addressPath = z.object({ address: addressSchema });
export const idPath = z.object({ id: alertIdParam.meta({ description: "Alert id (alrt_...)" }) });

/**
 * A keyed GET answering `response` with 200: `description` says what its numbers mean (units,
 * windows, the block they are as of), `errors` its codes besides every keyed operation's.
 */
export const get = (o: {
  summary: string;
  description?: string;
  response: z.ZodType;
  params: ZodOpenApiOperationObject["requestParams"];
  errors?: number[];
}): ZodOpenApiOperationObject => ({
  summary: o.summary,
  ...(o.description ? { description: o.description } : {}),
  requestParams: o.params,
  responses: responses({ 200: json(o.response, "OK") }, o.errors ?? []),
});

type Example = { request: string; status: number; body: unknown };
/** Recorded from the real API by `npm run examples:record`, keyed "METHOD /path". */
export const EXAMPLES = examples as Record<string, Example>;

type Operation = {
  description?: string;
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
};

/**
 * With `examples`, each operation's success response gets its recorded example, and its
 * description ends with the example's request.
 */
function withExamples(doc: ReturnType<typeof createDocument>, examples: boolean) {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const key = `${method.toUpperCase()} ${path}`;
      const example = examples ? EXAMPLES[key] : undefined;
      const content = example && operation.responses?.[example.status]?.content?.["application/json"];
      if (!content) continue;
      content.example = example.body;
      const request = `Example request: ${method.toUpperCase()} ${example.request}`;
      operation.description = operation.description ? `${operation.description} ${request}` : request;
    }
  }
  return doc;
}

/**
 * The API's OpenAPI 3.1 document of `paths`; without `examples`, no recorded example (the SDK's
 * types are made so).
 */
export function buildDocument(serverUrl: string, paths: Record<string, PathItem>, { examples = true } = {}) {
  return withExamples(
    createDocument({
      openapi: "3.1.0",
      info: {
        title: "Onchain Intel API",
        version: "1.0.0",
        description:
          "Token and wallet intelligence for one EVM chain. Every request carries `Authorization: Bearer <API_KEY>`. " +
          "Every response carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset (Unix seconds) " +
          "for the binding window; " +
          "data responses carry X-Indexed-Block.",
      },
      servers: [{ url: serverUrl }],
      security: [{ bearer: [] }],
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
        schemas: { StreamHead: events.streamHead, StreamEnd: events.streamEnd },
      },
      paths,
    }),
    examples,
  );
}
