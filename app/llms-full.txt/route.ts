import { llmsRoute } from "@/app/llms-route";
import { llmsFullTxt } from "@/components/docs/llms-text";

export const dynamic = "force-dynamic";

/** The whole API on one page for language models: every endpoint, parameter, error, field and an example. */
export const GET = llmsRoute(llmsFullTxt);
