import { PageSkeleton } from "@/components/ui/skeleton";

export default function DocsLoading() {
  return <PageSkeleton title="the API reference" blocks={["h-24", "h-64", "h-64"]} />;
}
