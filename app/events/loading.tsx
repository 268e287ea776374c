import { PageSkeleton } from "@/components/ui/skeleton";

export default function EventsLoading() {
  return <PageSkeleton title="events" blocks={["h-24", "h-10", "h-[640px]"]} />;
}
