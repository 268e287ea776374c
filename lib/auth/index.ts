import { DrizzleAdapter } from "@auth/drizzle-adapter";
import NextAuth, { type NextAuthConfig } from "next-auth";
import Resend from "next-auth/providers/resend";
import { getDb } from "@/db/client";
import { authAccounts, authSessions, authVerificationTokens, users } from "@/db/schema";
import { config } from "@/lib/config";
import { linkAccount } from "./link-account";
import { devSignIn } from "./dev-signin";
import { sendMagicLink } from "./magic-link";

/**
 * Sessions are JWTs in a cookie: the Credentials provider of the dev sign-in works only with
 * them, and magic links work with either, so one strategy serves both. The adapter still
 * stores users and the one-time tokens of magic links. A JWT cannot be revoked server-side,
 * hence a week's lifetime rather than Auth.js's default month.
 */
function buildConfig(): NextAuthConfig {
  const adapter = DrizzleAdapter(getDb(), {
    usersTable: users,
    accountsTable: authAccounts,
    sessionsTable: authSessions,
    verificationTokensTable: authVerificationTokens,
  });
  return {
    adapter,
    providers: [
      Resend({ apiKey: config.RESEND_API_KEY, from: config.EMAIL_FROM, sendVerificationRequest: sendMagicLink }),
      ...(config.DEV_SIGNIN ? [devSignIn(adapter)] : []),
    ],
    session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
    // Self-hosted behind no proxy that sets AUTH_URL; magic links are pinned to APP_URL when set.
    trustHost: true,
    pages: { signIn: "/signin", verifyRequest: "/signin/check-email", error: "/signin" },
    callbacks: {
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
    events: {
      async signIn({ user }) {
        if (user.id) await linkAccount(getDb(), user.id, user.email ?? null);
      },
    },
  };
}

let built: NextAuthConfig | undefined;

// Lazy: the database URL is read at the first request, not when `next build` imports this module.
export const { handlers, auth, signIn, signOut } = NextAuth(() => (built ??= buildConfig()));
