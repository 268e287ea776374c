import { openApiDocument } from "@/app/v1/document";
import type { llmsTxt } from "@/components/docs/llms-text";
import type { Document } from "@/components/docs/openapi-types";
import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { listPlans } from "@/lib/queries/plans";

let document: Document | undefined;

/** A GET handler of one of the llms texts, with the limits the plans table states. No key needed. */
export function llmsRoute(render: typeof llmsTxt) {
  return async (): Promise<Response> => {
    const origin = config.appOrigin;
    document ??= openApiDocument(`${origin}/v1`) as unknown as Document;
    const plans = await listPlans(getDb());
    return new Response(render({ doc: document, origin, plans }), {
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=300" },
    });
  };
}
