import { CredentialsSignin } from "next-auth";
import type { Adapter } from "next-auth/adapters";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { isLoopbackRequest } from "./client-address";

/**
 * What the browser's email field accepts (HTML's rule), single-label domains included: the dev
 * accounts `npm start` prints are dev+<plan>@localhost (scripts/embedded/dev-keys.ts).
 */
const email = z
  .email({ pattern: z.regexes.html5Email })
  .max(254)
  .transform((e) => e.trim().toLowerCase());

/** A refusal the sign-in page explains (its `code` reaches the page as ?code=). */
class DevSignInRefused extends CredentialsSignin {
  constructor(readonly code: "invalid_email" | "not_loopback" | "email_account") {
    super();
  }
}

/**
 * Password-less sign-in by email for local use: a newcomer gets in without an inbox. Registered
 * only where devSignInEnabled() (DEV_SIGNIN=1 on the embedded defaults, lib/auth/methods.ts), and
 * even there only for requests from this machine, and never as a user who has signed in by email
 * link (a verified address: their account is worth more than a local shortcut). The user row is
 * the one a magic link would create for that email.
 */
export function devSignIn(adapter: Adapter) {
  return Credentials({
    id: "dev",
    name: "Dev sign-in",
    credentials: { email: { label: "Email", type: "email" } },
    async authorize(credentials, request) {
      if (!isLoopbackRequest(request.headers)) throw new DevSignInRefused("not_loopback");
      const parsed = email.safeParse(credentials.email);
      if (!parsed.success) throw new DevSignInRefused("invalid_email");
      const existing = await adapter.getUserByEmail!(parsed.data);
      if (existing?.emailVerified) throw new DevSignInRefused("email_account");
      return existing ?? adapter.createUser!({ id: crypto.randomUUID(), email: parsed.data, emailVerified: null });
    },
  });
}
