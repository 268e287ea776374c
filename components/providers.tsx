"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { isFinal } from "./fetch-json";
import { LiveProvider } from "./live/live-provider";

/** One more try for a lost connection or a server error; a refusal (sign in, rate limit, bad input) would recur. */
const retry = (failures: number, err: unknown) => failures < 1 && !isFinal(err);

export function Providers({ children }: { children: ReactNode }) {
  // One client per browser session; pages hand their server-rendered data in as initialData.
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry } } }),
  );
  return (
    <QueryClientProvider client={client}>
      <LiveProvider>{children}</LiveProvider>
    </QueryClientProvider>
  );
}
