import type { Metadata } from "next";
import { searchOf } from "@/components/search-params";
import { TokenExplorer } from "@/components/tokens/explorer";
import { tokenFilterFields } from "@/components/tokens/filter-fields";
import { PageHeader } from "@/components/ui/page-header";
import { ApiError } from "@/lib/api/errors";
import { marketTokens } from "@/lib/api/market-reads";
import { pageView } from "@/lib/auth/market-access";

export const metadata: Metadata = { title: "Tokens" };

const tokensView = (search: URLSearchParams) => pageView(`/api/tokens?${search}`, () => marketTokens(search));

export default async function TokensPage({ searchParams }: PageProps<"/tokens">) {
  let search = searchOf(await searchParams);
  let invalid: string | undefined;
  let view: Awaited<ReturnType<typeof tokensView>>;
  try {
    view = await tokensView(search);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "INVALID_PARAMS") throw err;
    invalid = err.message;
    search = new URLSearchParams();
    view = await tokensView(search);
  }
  return (
    <>
      <PageHeader
        title="Tokens"
        subtitle="Every filter and sort of GET /v1/tokens. The URL keeps them: share it, or call the API with it."
      />
      <TokenExplorer initial={{ search: search.toString(), ...view }} fields={tokenFilterFields()} invalid={invalid} />
    </>
  );
}
