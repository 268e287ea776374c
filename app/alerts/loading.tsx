import { PageSkeleton } from "@/components/ui/skeleton";

export default function AlertsLoading() {
  return <PageSkeleton title="your alerts" blocks={["h-6", "h-96", "h-40"]} />;
}
