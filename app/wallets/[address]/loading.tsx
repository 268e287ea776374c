import { PageSkeleton } from "@/components/ui/skeleton";

export default function WalletLoading() {
  return <PageSkeleton title="the wallet" blocks={["h-20", "h-64", "h-96"]} />;
}
