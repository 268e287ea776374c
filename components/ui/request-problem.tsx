"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { RequestRefused } from "../fetch-json";
import { buttonClass } from "./button";
import { ErrorMessage } from "./error-message";
import { warningClass } from "./surfaces";

/** Asks to sign in (indigo, as an invitation, not an error). */
const SIGN_IN_BOX =
  "flex flex-wrap items-center justify-between gap-3 rounded-lg border border-indigo-200 bg-indigo-50 p-4 text-sm " +
  "text-indigo-950 dark:border-indigo-900 dark:bg-indigo-950 dark:text-indigo-100";

/** A wait in words: seconds under two minutes, then minutes, then hours. */
export function formatWait(seconds: number): string {
  if (seconds < 120) return `${Math.max(0, seconds)} s`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.ceil(seconds / 3600)} h`;
}

/** Seconds left until `at`: `initial` first (the server renders it), then counted down each second. */
function useSecondsUntil(at: number, initial: number) {
  const [left, setLeft] = useState(initial);
  useEffect(() => {
    const tick = () => setLeft(Math.max(0, Math.ceil((at - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [at]);
  return left;
}

function RateLimited({ retryAt, retryAfter, keeping }: { retryAt: number; retryAfter: number; keeping: boolean }) {
  const left = useSecondsUntil(retryAt, retryAfter);
  return (
    <p role="status" data-testid="rate-limited" className={warningClass}>
      Rate limit reached{keeping ? ": showing what was loaded before" : ""}.{" "}
      {left > 0 ? `Refreshes in ${formatWait(left)}.` : "Refreshing…"}
    </p>
  );
}

/** The view is an account's: says why, and signs in with a way back to this very view. */
function SignInFirst({ message }: { message: string }) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const back = `${pathname}${search ? `?${search}` : ""}`;
  return (
    <div role="status" data-testid="sign-in-required" className={SIGN_IN_BOX}>
      <p className="min-w-0 flex-1 basis-72">{message}</p>
      <Link href={`/signin?callbackUrl=${encodeURIComponent(back)}`} className={buttonClass("primary")}>
        Sign in to see it
      </Link>
    </div>
  );
}

type Props = { problem: Error | null; retryAt: number | null; keeping: boolean };

/**
 * Why a view's data did not come, distinct from a view without data: sign in first (the view is
 * an account's), the rate limit and when the view refreshes (with what was shown kept on screen),
 * or the server's message.
 */
export function RequestProblem({ problem, retryAt, keeping }: Props) {
  if (!problem) return null;
  if (problem instanceof RequestRefused && problem.needsAccount) return <SignInFirst message={problem.message} />;
  if (problem instanceof RequestRefused && problem.rateLimited && retryAt !== null) {
    return <RateLimited retryAt={retryAt} retryAfter={problem.retryAfter ?? 1} keeping={keeping} />;
  }
  return (
    <ErrorMessage>
      {problem.message}
      {keeping ? " Showing what was loaded before." : ""}
    </ErrorMessage>
  );
}
