import type { Adapter } from "next-auth/adapters";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";

const email = z.email().max(254).transform((e) => e.trim().toLowerCase());

/**
 * Password-less sign-in by email for local use (DEV_SIGNIN=1 only): a newcomer gets in
 * without an inbox. The user row is the same one a magic link would create for that email.
 */
export function devSignIn(adapter: Adapter) {
  return Credentials({
    id: "dev",
    name: "Dev sign-in",
    credentials: { email: { label: "Email", type: "email" } },
    async authorize(credentials) {
      const parsed = email.safeParse(credentials.email);
      if (!parsed.success) return null;
      const existing = await adapter.getUserByEmail!(parsed.data);
      return existing ?? adapter.createUser!({ id: crypto.randomUUID(), email: parsed.data, emailVerified: null });
    },
  });
}
