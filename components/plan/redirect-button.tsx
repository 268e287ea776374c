"use client";

import { useMutation } from "@tanstack/react-query";
import { fetchJson } from "../fetch-json";
import { buttonClass } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";

/** Asks a billing route for a Stripe page (Checkout, the billing portal) and goes there. */
export function RedirectButton({
  url,
  body = {},
  label,
  variant = "primary",
  className = "",
}: {
  url: string;
  body?: object;
  label: string;
  variant?: "primary" | "secondary";
  className?: string;
}) {
  const go = useMutation({
    // Always a JSON body: the dashboard's routes take writes as JSON only.
    mutationFn: () => fetchJson<{ url: string }>(url, { method: "POST", body }),
    onSuccess: ({ url: target }) => window.location.assign(target),
  });
  return (
    <div className={className}>
      <button
        type="button"
        className={buttonClass(variant, "w-full")}
        disabled={go.isPending || go.isSuccess}
        onClick={() => go.mutate()}
      >
        {go.isPending || go.isSuccess ? "Opening Stripe…" : label}
      </button>
      {go.error && (
        <div className="mt-2">
          <ErrorMessage>{go.error.message}</ErrorMessage>
        </div>
      )}
    </div>
  );
}
