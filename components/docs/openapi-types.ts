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
};

export type Parameter = { in: string; name: string; required?: boolean; description?: string; schema?: Schema };
export type Response = { description: string; content?: Record<string, { schema?: Schema }> };
export type Operation = {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
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
