import { SkeletonBlock } from "@/components/ui/skeleton";

export default function MarketLoading() {
  return (
    <div aria-busy="true">
      <p className="sr-only">Loading the market…</p>
      <SkeletonBlock className="mb-2 h-8 w-40" />
      <SkeletonBlock className="mb-6 h-4 w-96 max-w-full" />
      <SkeletonBlock className="mb-4 h-12 w-full" />
      <div className="mb-4 grid gap-4 lg:grid-cols-2">
        <SkeletonBlock className="h-96" />
        <SkeletonBlock className="h-96" />
      </div>
      <SkeletonBlock className="h-96 w-full" />
    </div>
  );
}
