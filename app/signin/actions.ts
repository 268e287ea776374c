"use server";

import { redirect } from "next/navigation";
import { AuthError, CredentialsSignin } from "next-auth";
import { signIn } from "@/lib/auth";
import { safeReturnPath } from "@/lib/auth/return-path";

/**
 * Signs in with a provider, then goes to `next(returnTo)`. Auth.js's own errors (a refused dev
 * sign-in, a throttled email, a failed send) become a message on the sign-in page; anything
 * else is a real failure. Sign-in emails are throttled per address and per client where every
 * way of asking for one passes (the signIn callback, lib/auth/index.ts), not only here.
 */
async function signInWith(provider: "resend" | "dev", form: FormData, next: (returnTo: string) => string) {
  const returnTo = safeReturnPath(form.get("callbackUrl"));
  try {
    await signIn(provider, { email: String(form.get("email") ?? ""), redirectTo: returnTo, redirect: false });
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    const code = err instanceof CredentialsSignin ? `&code=${encodeURIComponent(err.code)}` : "";
    redirect(`/signin?error=${encodeURIComponent(err.type)}${code}&callbackUrl=${encodeURIComponent(returnTo)}`);
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
