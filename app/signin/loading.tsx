import { PageSkeleton } from "@/components/ui/skeleton";

export default function SignInLoading() {
  return <PageSkeleton title="sign-in" blocks={["h-40", "h-40"]} />;
}
