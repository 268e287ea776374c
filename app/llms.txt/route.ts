import { llmsRoute } from "@/app/llms-route";
import { llmsTxt } from "@/components/docs/llms-text";

export const dynamic = "force-dynamic";

/** The API's index for language models (llmstxt.org), generated from the OpenAPI document. */
export const GET = llmsRoute(llmsTxt);
