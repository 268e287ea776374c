import { PageSkeleton } from "@/components/ui/skeleton";

export default function KeysLoading() {
  return <PageSkeleton title="your API keys" blocks={["h-20", "h-64"]} />;
}
