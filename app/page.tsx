import type { Metadata } from "next";
import { LiveOverview } from "@/components/home/live-overview";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db/client";
import { eventListFromSearch, tokenListFromSearch } from "@/lib/api/lists";
import { requireSession } from "@/lib/auth/account";
import { requestTime } from "@/lib/queries/clock";
import { OVERVIEW_URLS } from "@/lib/queries/shared-views";
import { getStatus } from "@/lib/queries/status";

export const metadata: Metadata = { title: "Market" };

const searchOf = (url: string) => new URL(url, "http://dashboard").searchParams;

export default async function HomePage() {
  await requireSession("/");
  const db = getDb();
  const now = requestTime();
  const [trending, newest, events, status] = await Promise.all([
    tokenListFromSearch(db, searchOf(OVERVIEW_URLS.trending), now),
    tokenListFromSearch(db, searchOf(OVERVIEW_URLS.newest), now),
    eventListFromSearch(db, searchOf(OVERVIEW_URLS.events)),
    getStatus(db, now),
  ]);
  return (
    <>
      <PageHeader title="Market" subtitle="Trending tokens, new launches and on-chain events as the indexer sees them." />
      <LiveOverview initial={{ trending, newest, events, status }} />
    </>
  );
}
