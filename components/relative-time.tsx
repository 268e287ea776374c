"use client";

import { useEffect, useState } from "react";
import { formatDateTime, formatRelative } from "./format";

/** "3 min. ago", kept current; the exact UTC time is in the tooltip and the datetime attribute. */
export function RelativeTime({ iso }: { iso: string | null }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)} suppressHydrationWarning>
      {formatRelative(iso, now)}
    </time>
  );
}
