import { PageSkeleton } from "@/components/ui/skeleton";

export default function TokensLoading() {
  return <PageSkeleton title="tokens" blocks={["h-48", "h-[560px]"]} />;
}
