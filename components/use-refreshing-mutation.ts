"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { fetchJson } from "./fetch-json";

/**
 * A write to a dashboard JSON route; on success the page's server components render again,
 * so every list on it shows the change (the server stays the one source of the data).
 */
export function useRefreshingMutation<Input, Output = unknown>(
  request: (input: Input) => { url: string; method: string; body?: unknown },
) {
  const router = useRouter();
  return useMutation({
    mutationFn: (input: Input) => {
      const { url, ...init } = request(input);
      return fetchJson<Output>(url, init);
    },
    onSuccess: () => router.refresh(),
  });
}
