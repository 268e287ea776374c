import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <div className="mx-auto max-w-lg py-10 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Not found</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        Nothing is indexed at this address, or the page does not exist.
      </p>
      <p className="mt-4 text-sm">
        <Link href="/tokens" className="text-indigo-700 underline dark:text-indigo-300">
          Explore tokens
        </Link>
      </p>
    </div>
  );
}
