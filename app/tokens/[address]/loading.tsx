import { PageSkeleton } from "@/components/ui/skeleton";

export default function TokenLoading() {
  return <PageSkeleton title="the token" blocks={["h-20", "h-80", "h-24", "h-96"]} />;
}
