import { openApiDocument } from "@/app/v1/document";
import { route, withPublic } from "@/lib/api/handler";

let document: ReturnType<typeof openApiDocument> | undefined;

/** The OpenAPI 3.1 document, generated from the schemas that validate requests. No key needed. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withPublic(async (_req, { url }) => {
    document ??= openApiDocument(`${url.origin}/v1`);
    return document;
  }),
});
