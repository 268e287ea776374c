/** Placeholder blocks shaped like the page to come, so content arrives without a jump. */
export function SkeletonBlock({ className = "" }: { className?: string }) {
  return (
    <div className={`animate-pulse rounded-md bg-zinc-200 motion-reduce:animate-none dark:bg-zinc-800 ${className}`} />
  );
}

export function PageSkeleton({ title, blocks = ["h-24", "h-80"] }: { title: string; blocks?: string[] }) {
  return (
    <div aria-busy="true" aria-live="polite">
      <p className="sr-only">Loading {title}…</p>
      <SkeletonBlock className="mb-2 h-8 w-56" />
      <SkeletonBlock className="mb-6 h-4 w-80 max-w-full" />
      <div className="space-y-4">
        {blocks.map((h, i) => (
          <SkeletonBlock key={i} className={`w-full ${h}`} />
        ))}
      </div>
    </div>
  );
}
