import type { Metadata } from "next";
import { EventStream } from "@/components/events/event-stream";
import { streamSearch } from "@/components/events/stream-search";
import { searchOf } from "@/components/search-params";
import { PageHeader } from "@/components/ui/page-header";
import { ApiError } from "@/lib/api/errors";
import { marketEvents, marketStatus } from "@/lib/api/market-reads";
import { pageView } from "@/lib/auth/market-access";
import { EVENT_TYPES } from "@/lib/domain/vocab";

export const metadata: Metadata = { title: "Events" };

const eventsView = (search: URLSearchParams) => pageView(`/api/events?${search}`, () => marketEvents(search));

export default async function EventsPage({ searchParams }: PageProps<"/events">) {
  let search = streamSearch(searchOf(await searchParams));
  let invalid: string | undefined;
  let view: Awaited<ReturnType<typeof eventsView>>;
  try {
    view = await eventsView(search);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "INVALID_PARAMS") throw err;
    invalid = err.message;
    search = streamSearch(new URLSearchParams());
    view = await eventsView(search);
  }
  const status = await marketStatus();
  return (
    <>
      <PageHeader
        title="Events"
        subtitle="Swaps, liquidity changes and transfers across every indexed token, newest first."
      />
      <EventStream types={EVENT_TYPES} initial={{ search: search.toString(), ...view, status }} invalid={invalid} />
    </>
  );
}
