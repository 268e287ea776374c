import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { buttonClass, inputClass, labelClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorMessage } from "@/components/ui/error-message";
import { auth } from "@/lib/auth";
import { safeReturnPath } from "@/lib/auth/return-path";
import { config } from "@/lib/config";
import { devSignIn, emailSignIn } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  CredentialsSignin: "Enter a valid email address.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  EmailSignInError: "The sign-in email could not be sent. Try again in a moment.",
};

function EmailField({ id }: { id: string }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Email
      </label>
      <input id={id} name="email" type="email" required autoComplete="email" placeholder="you@example.com" className={inputClass} />
    </div>
  );
}

export default async function SignInPage({ searchParams }: PageProps<"/signin">) {
  const { callbackUrl, error } = await searchParams;
  const returnTo = safeReturnPath(callbackUrl);
  if ((await auth())?.user?.id) redirect(returnTo);
  const errorText = typeof error === "string" ? (ERRORS[error] ?? "Sign-in failed. Try again.") : null;

  return (
    <div className="mx-auto max-w-md space-y-4 py-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Explore tokens and wallets, create API keys, watch your usage and build alerts. New here? Signing in creates
          your account on the Free plan.
        </p>
      </div>
      {errorText && <ErrorMessage>{errorText}</ErrorMessage>}
      <Card title="Email me a sign-in link">
        <form action={emailSignIn} className="space-y-3">
          <input type="hidden" name="callbackUrl" value={returnTo} />
          <EmailField id="email" />
          <button type="submit" className={buttonClass("primary", "w-full")}>
            Send the link
          </button>
        </form>
      </Card>
      {config.DEV_SIGNIN && (
        <Card title="Dev sign-in">
          <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
            Enabled for local use (<code>DEV_SIGNIN=1</code>): any email, no inbox, no password.
          </p>
          <form action={devSignIn} className="space-y-3">
            <input type="hidden" name="callbackUrl" value={returnTo} />
            <EmailField id="dev-email" />
            <button type="submit" className={buttonClass("secondary", "w-full")}>
              Sign in without email
            </button>
          </form>
        </Card>
      )}
    </div>
  );
}
