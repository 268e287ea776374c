"use server";

import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { signIn } from "@/lib/auth";
import { safeReturnPath } from "@/lib/auth/return-path";

/**
 * Signs in with a provider, then goes to `next(returnTo)`. Auth.js's own errors become a
 * message on the sign-in page; anything else is a real failure.
 */
async function signInWith(provider: "resend" | "dev", form: FormData, next: (returnTo: string) => string) {
  const returnTo = safeReturnPath(form.get("callbackUrl"));
  try {
    await signIn(provider, { email: String(form.get("email") ?? ""), redirectTo: returnTo, redirect: false });
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    redirect(`/signin?error=${encodeURIComponent(err.type)}&callbackUrl=${encodeURIComponent(returnTo)}`);
  }
  redirect(next(returnTo));
}

/** Sends the link; the link itself brings the user back to `callbackUrl`. */
export async function emailSignIn(form: FormData) {
  await signInWith("resend", form, () => "/signin/check-email");
}

export async function devSignIn(form: FormData) {
  await signInWith("dev", form, (returnTo) => returnTo);
}
