import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { buttonClass, inputClass, labelClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorMessage } from "@/components/ui/error-message";
import { auth } from "@/lib/auth";
import { devSignInEnabled, emailSignInMode } from "@/lib/auth/methods";
import { safeReturnPath } from "@/lib/auth/return-path";
import { devSignIn, emailSignIn } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  CredentialsSignin: "Enter a valid email address.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  EmailSignInError: "The sign-in email could not be sent. Try again in a moment.",
  // Only the sign-in email throttle denies access (lib/auth/sign-in-throttle.ts).
  AccessDenied: "Too many sign-in links were asked for, for this address or from your network. Try again in an hour.",
};

/** Why the dev sign-in refused (lib/auth/dev-signin.ts). */
const DEV_SIGNIN_REFUSALS: Record<string, string> = {
  invalid_email: "Enter a valid email address.",
  not_loopback: "The dev sign-in works only from this machine: open the dashboard at http://localhost.",
  email_account: "This address signs in by email link; the dev sign-in is not available for it.",
};

function errorText(error: unknown, code: unknown): string | null {
  if (typeof error !== "string") return null;
  if (error === "CredentialsSignin" && typeof code === "string" && DEV_SIGNIN_REFUSALS[code])
    return DEV_SIGNIN_REFUSALS[code];
  return ERRORS[error] ?? "Sign-in failed. Try again.";
}

function EmailField({ id }: { id: string }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Email
      </label>
      <input
        id={id}
        name="email"
        type="email"
        required
        autoComplete="email"
        placeholder="you@example.com"
        className={inputClass}
      />
    </div>
  );
}

export default async function SignInPage({ searchParams }: PageProps<"/signin">) {
  const { callbackUrl, error, code } = await searchParams;
  const returnTo = safeReturnPath(callbackUrl);
  if ((await auth())?.user?.id) redirect(returnTo);
  const message = errorText(error, code);
  const email = emailSignInMode();

  return (
    <div className="mx-auto max-w-md space-y-4 py-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Create API keys, watch your usage and build alerts; market pages need no account. New here? Signing in creates
          your account on the Free plan.
        </p>
      </div>
      {message && <ErrorMessage>{message}</ErrorMessage>}
      <Card title="Email me a sign-in link">
        {email === "off" ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Email sign-in is not configured on this server (it needs <code>RESEND_API_KEY</code> and{" "}
            <code>APP_URL</code>).
          </p>
        ) : (
          <form action={emailSignIn} className="space-y-3">
            {email === "logged" && (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                No email service is configured: the link is written to the server&apos;s log.
              </p>
            )}
            <input type="hidden" name="callbackUrl" value={returnTo} />
            <EmailField id="email" />
            <button type="submit" className={buttonClass("primary", "w-full")}>
              Send the link
            </button>
          </form>
        )}
      </Card>
      {devSignInEnabled() && (
        <Card title="Dev sign-in">
          <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
            Enabled on the embedded defaults (<code>DEV_SIGNIN=1</code>), from this machine only: any email that has not
            signed in by link, no inbox, no password.
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
