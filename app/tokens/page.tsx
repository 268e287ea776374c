import type { Metadata } from "next";
import { searchOf } from "@/components/search-params";
import { TokenExplorer } from "@/components/tokens/explorer";
import { tokenFilterFields } from "@/components/tokens/filter-fields";
import { PageHeader } from "@/components/ui/page-header";
import { ApiError } from "@/lib/api/errors";
import { marketTokens } from "@/lib/api/market-reads";

export const metadata: Metadata = { title: "Tokens" };

export default async function TokensPage({ searchParams }: PageProps<"/tokens">) {
  let search = searchOf(await searchParams);
  let invalid: string | undefined;
  let data: Awaited<ReturnType<typeof marketTokens>>;
  try {
    data = await marketTokens(search);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "INVALID_PARAMS") throw err;
    invalid = err.message;
    search = new URLSearchParams();
    data = await marketTokens(search);
  }
  return (
    <>
      <PageHeader title="Tokens" subtitle="Every filter and sort of GET /v1/tokens. The URL keeps them: share it, or call the API with it." />
      <TokenExplorer initial={{ search: search.toString(), data }} fields={tokenFilterFields()} invalid={invalid} />
    </>
  );
}
