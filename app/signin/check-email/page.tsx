import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Check your email" };

export default function CheckEmailPage() {
  return (
    <div className="mx-auto max-w-md py-10 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Check your email</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        A sign-in link is on its way. It works once and expires in 24 hours.
      </p>
      <p className="mt-4 text-sm">
        <Link href="/signin" className="text-indigo-700 underline dark:text-indigo-300">
          Use another email
        </Link>
      </p>
    </div>
  );
}
