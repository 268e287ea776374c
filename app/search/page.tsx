import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Address } from "@/components/address";
import { HitFigures, HitName, hitHref } from "@/components/search/search-hit";
import { searchOf } from "@/components/search-params";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorMessage } from "@/components/ui/error-message";
import { PageHeader } from "@/components/ui/page-header";
import { ApiError } from "@/lib/api/errors";
import { marketSearch } from "@/lib/api/market-reads";
import { type MarketView, pageView } from "@/lib/auth/market-access";

export const metadata: Metadata = { title: "Search" };

/**
 * The header's search: straight to the token or wallet page when the query names one (a whole
 * address, or the one match), otherwise the matches of GET /v1/search. Public, and metered like
 * the API: per account, or per client address without one (lib/auth/market-access.ts).
 */
export default async function SearchPage({ searchParams }: PageProps<"/search">) {
  const q = (searchOf(await searchParams).get("q") ?? "").trim();
  if (!q)
    return (
      <PageHeader
        title="Search"
        subtitle="Type a token's symbol or name, or a token or wallet address, in the box above."
      />
    );
  const params = new URLSearchParams({ q, limit: "25" });
  let view: MarketView<Awaited<ReturnType<typeof marketSearch>>>;
  try {
    view = await pageView(`/search?${params}`, () => marketSearch(params));
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "INVALID_PARAMS") throw err;
    return (
      <>
        <PageHeader title="Search" />
        <ErrorMessage>That search cannot be run: {err.message}</ErrorMessage>
      </>
    );
  }
  if (view.refusal) {
    return (
      <>
        <PageHeader title={`Search: ${q}`} />
        <ErrorMessage>{view.refusal.message}</ErrorMessage>
      </>
    );
  }
  const result = view.data;
  const exact = result.data.find((hit) => hit.address === q.toLowerCase());
  if (exact || result.total === 1) redirect(hitHref(exact ?? result.data[0]));
  return (
    <>
      <PageHeader
        title={`Search: ${q}`}
        subtitle={`${result.total} ${result.total === 1 ? "match" : "matches"}; tokens first, by liquidity.`}
      />
      {result.data.length === 0 ? (
        <EmptyState title="Nothing matches.">Search by the start of a symbol, a name or an address (0x…).</EmptyState>
      ) : (
        <Card>
          <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800" aria-label="Matches">
            {result.data.map((hit) => (
              <li
                key={`${hit.type}-${hit.address}`}
                data-address={hit.address}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5"
              >
                <span className="min-w-0 space-y-1">
                  <Link
                    href={hitHref(hit)}
                    className="block truncate font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                  >
                    <HitName hit={hit} />
                  </Link>
                  <HitFigures hit={hit} />
                </span>
                <Address value={hit.address} chars={4} />
              </li>
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}
