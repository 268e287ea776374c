import { PageSkeleton } from "@/components/ui/skeleton";

export default function PlanLoading() {
  return <PageSkeleton title="your plan and usage" blocks={["h-56", "h-48"]} />;
}
