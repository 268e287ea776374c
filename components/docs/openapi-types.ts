/** The parts of an OpenAPI 3.1 document the reference page reads. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  example?: unknown;
  examples?: unknown[];
};

export type Parameter = { in: string; name: string; required?: boolean; description?: string; schema?: Schema };
/** A media type's schema and, where the document records them, example values. */
export type MediaType = { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> };
export type Response = { description: string; content?: Record<string, MediaType> };
export type Operation = {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, Response>;
  security?: unknown[];
};
export type Document = {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Partial<Record<string, Operation>>>;
  components?: { schemas?: Record<string, Schema> };
};

export const refName = (ref: string) => ref.split("/").at(-1)!;
export const schemaAnchor = (name: string) => `schema-${name}`;
