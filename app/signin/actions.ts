"use server";

import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { signIn } from "@/lib/auth";

/** Only a path on this site may follow sign-in (no open redirect). */
const returnPath = (v: FormDataEntryValue | null) => (typeof v === "string" && /^\/(?!\/)/.test(v) ? v : "/");

async function signInWith(provider: "resend" | "dev", form: FormData) {
  const redirectTo = returnPath(form.get("callbackUrl"));
  try {
    await signIn(provider, { email: String(form.get("email") ?? ""), redirectTo });
  } catch (err) {
    // signIn redirects by throwing; only Auth.js's own errors become a message on the page.
    if (!(err instanceof AuthError)) throw err;
    redirect(`/signin?error=${encodeURIComponent(err.type)}&callbackUrl=${encodeURIComponent(redirectTo)}`);
  }
}

export async function emailSignIn(form: FormData) {
  await signInWith("resend", form);
}

export async function devSignIn(form: FormData) {
  await signInWith("dev", form);
}
