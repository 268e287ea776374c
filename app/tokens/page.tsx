import type { Metadata } from "next";
import { searchOf } from "@/components/search-params";
import { TokenExplorer } from "@/components/tokens/explorer";
import { tokenFilterFields } from "@/components/tokens/filter-fields";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db/client";
import { ApiError } from "@/lib/api/errors";
import { tokenListFromSearch } from "@/lib/api/lists";
import { requireSession } from "@/lib/auth/account";
import { TOKEN_SORTS } from "@/lib/domain/vocab";
import { requestTime } from "@/lib/queries/clock";

export const metadata: Metadata = { title: "Tokens" };

export default async function TokensPage({ searchParams }: PageProps<"/tokens">) {
  await requireSession("/tokens");
  const db = getDb();
  const now = requestTime();
  let search = searchOf(await searchParams);
  let invalid: string | undefined;
  let data: Awaited<ReturnType<typeof tokenListFromSearch>>;
  try {
    data = await tokenListFromSearch(db, search, now);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "INVALID_PARAMS") throw err;
    invalid = err.message;
    search = new URLSearchParams();
    data = await tokenListFromSearch(db, search, now);
  }
  return (
    <>
      <PageHeader title="Tokens" subtitle="Every filter and sort of GET /v1/tokens. The URL keeps them: share it, or call the API with it." />
      <TokenExplorer initial={{ search: search.toString(), data }} sorts={TOKEN_SORTS} fields={tokenFilterFields()} invalid={invalid} />
    </>
  );
}
