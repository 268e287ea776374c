import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { NextRequest } from "next/server";
import { OnchainIntel } from "onchain-intel";
import { createServer } from "onchain-intel-mcp";
import { authorizeKey, keyHash, rateLimitHeaders } from "@/lib/api/auth";
import { ApiError } from "@/lib/api/errors";
import { readBodyCapped } from "@/lib/api/params";
import { errorResponse, newRequestId } from "@/lib/api/response";
import { config } from "@/lib/config";
import { v1Fetch } from "./v1-routes";

/** Statuses of an API call that refuse the whole MCP request: the key is not valid, or over its limits. */
const REFUSALS = new Set([401, 429]);
const RATE_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"];

const isToolCall = (message: unknown) => (message as { method?: unknown } | null)?.method === "tools/call";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The MCP server over Streamable HTTP (stateless: a server per request, JSON answers), behind
 * the API's keys and limits. A tool call's reads go to the /v1 handlers in this process with the
 * caller's key, so each counts as the API request it is; every other message (initialize, the
 * tool list, ...) and a tool call that reached no endpoint (its arguments were refused) counts
 * as one request, authorized as the API authorizes. A key the API refuses (401, 429) refuses the
 * MCP request with the API's status, body and headers.
 */
async function post(req: NextRequest): Promise<Response> {
  const requestId = newRequestId();
  try {
    const authorization = req.headers.get("authorization");
    const hash = keyHash(authorization);
    const text = (await readBodyCapped(req)).toString("utf8");
    const message = parseJson(text);
    const headers = new Headers({ "X-Request-Id": requestId });
    const authorize = async () => {
      for (const [name, value] of Object.entries(rateLimitHeaders((await authorizeKey(hash)).rateLimit)))
        headers.set(name, value);
    };
    if (!isToolCall(message)) await authorize();

    let apiCalls = 0;
    let refusal: Response | undefined;
    const observe = (response: Response) => {
      apiCalls++;
      if (REFUSALS.has(response.status)) refusal ??= response.clone();
      for (const name of RATE_HEADERS) if (response.headers.has(name)) headers.set(name, response.headers.get(name)!);
    };
    const apiKey = authorization!.replace(/^Bearer\s+/i, "").trim();
    const client = new OnchainIntel({
      apiKey,
      baseUrl: `${config.appOrigin}/v1`,
      fetch: v1Fetch(observe),
      maxRetries: 0,
    });
    const server = createServer({ client, dashboardUrl: config.appOrigin });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    const forwarded = new Request(req.url, { method: "POST", headers: req.headers, body: text });
    const response = await transport.handleRequest(
      forwarded,
      message === undefined ? undefined : { parsedBody: message },
    );
    await server.close();

    if (refusal) return new Response(refusal.body, { status: refusal.status, headers: refusal.headers });
    if (isToolCall(message) && apiCalls === 0) await authorize();
    response.headers.forEach((value, name) => {
      headers.set(name, value);
    });
    return new Response(response.body, { status: response.status, headers });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}

/** A stateless server keeps no stream open for the client (GET) and no session to end (DELETE). */
async function notAllowed(req: NextRequest): Promise<Response> {
  const error = new ApiError(
    "METHOD_NOT_ALLOWED",
    `Method ${req.method} is not allowed here. Allowed: POST.`,
    undefined,
    { Allow: "POST" },
  );
  return errorResponse(error, newRequestId());
}

export { notAllowed as GET, notAllowed as DELETE, notAllowed as PUT, notAllowed as PATCH, post as POST };
