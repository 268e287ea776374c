import { ApiError } from "@/lib/api/errors";
import { withPublic } from "@/lib/api/handler";

const unknownPath = withPublic(async (_req, { url }) => {
  throw new ApiError("NOT_FOUND", `No such endpoint: ${url.pathname}. See /v1/openapi.json.`);
});

/** Every path under /v1 that no route serves. */
export { unknownPath as GET, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE };
