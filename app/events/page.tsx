import type { Metadata } from "next";
import { EventStream } from "@/components/events/event-stream";
import { streamSearch } from "@/components/events/stream-search";
import { searchOf } from "@/components/search-params";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db/client";
import { ApiError } from "@/lib/api/errors";
import { eventListFromSearch } from "@/lib/api/lists";
import { requireSession } from "@/lib/auth/account";
import { EVENT_TYPES } from "@/lib/domain/vocab";
import { requestTime } from "@/lib/queries/clock";
import { getStatus } from "@/lib/queries/status";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage({ searchParams }: PageProps<"/events">) {
  await requireSession("/events");
  const db = getDb();
  let search = streamSearch(searchOf(await searchParams));
  let invalid: string | undefined;
  let data: Awaited<ReturnType<typeof eventListFromSearch>>;
  try {
    data = await eventListFromSearch(db, search);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "INVALID_PARAMS") throw err;
    invalid = err.message;
    search = streamSearch(new URLSearchParams());
    data = await eventListFromSearch(db, search);
  }
  const status = await getStatus(db, requestTime());
  return (
    <>
      <PageHeader title="Events" subtitle="Swaps, liquidity changes and transfers across every indexed token, newest first." />
      <EventStream types={EVENT_TYPES} initial={{ search: search.toString(), data, status }} invalid={invalid} />
    </>
  );
}
