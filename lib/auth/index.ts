import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { headers } from "next/headers";
import { NextRequest } from "next/server";
import NextAuth, { type NextAuthConfig } from "next-auth";
import Resend from "next-auth/providers/resend";
import { getAuthSql, getDb, getSql } from "@/db/client";
import { authAccounts, authSessions, authVerificationTokens, users } from "@/db/schema";
import { readBodyCapped } from "@/lib/api/params";
import { errorResponse, newRequestId } from "@/lib/api/response";
import { config } from "@/lib/config";
import { clientMeter } from "./client-address";
import { devSignIn } from "./dev-signin";
import { linkAccount } from "./link-account";
import { sendMagicLink } from "./magic-link";
import { devSignInEnabled } from "./methods";
import { closeSession, isSessionLive, openSession, SESSION_MAX_AGE_S } from "./sessions";
import { takeSignInEmail } from "./sign-in-throttle";

/**
 * Sessions are JWTs in a cookie (the Credentials provider of the dev sign-in works only with
 * them), each naming a row of the session registry (sessions.ts) that sign-out deletes: a week's
 * lifetime, revocable. The adapter stores users and the one-time tokens of magic links.
 */
function buildConfig(): NextAuthConfig {
  // Auth.js builds every URL it makes (magic links, redirects) from AUTH_URL, and from the
  // request's Host or X-Forwarded-Host without it: pinned to the configured origin, a forged
  // header cannot send someone's sign-in link elsewhere. (AUTH_URL also makes Auth.js trust it.)
  process.env.AUTH_URL = config.AUTH_URL ?? config.appOrigin;
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
      ...(devSignInEnabled() ? [devSignIn(adapter)] : []),
    ],
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: "/signin", verifyRequest: "/signin/check-email", error: "/signin" },
    callbacks: {
      async signIn({ user, email }) {
        // Asking for a link (not following one): throttled per address and per client.
        if (email?.verificationRequest && user.email)
          await takeSignInEmail(getSql(), user.email, clientMeter(await headers()));
        return true;
      },
      async jwt({ token, user }) {
        if (user?.id) return { ...token, sid: await openSession(getAuthSql(), user.id) };
        // Signed out, signed out everywhere, or issued before sessions were registered: no session.
        if (typeof token.sid !== "string" || !(await isSessionLive(getAuthSql(), token.sid))) return null;
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
    events: {
      async signIn({ user }) {
        if (user.id) await linkAccount(getDb(), user.id, user.email ?? null);
      },
      async signOut(message) {
        const sid = "token" in message ? message.token?.sid : undefined;
        if (typeof sid === "string") await closeSession(getAuthSql(), sid);
      },
    },
  };
}

let built: NextAuthConfig | undefined;

// Lazy: the database URL is read at the first request, not when `next build` imports this module.
const nextAuth = NextAuth(() => (built ??= buildConfig()));
export const { auth, signIn, signOut } = nextAuth;

/** Auth.js's routes, with the same 64 KiB body cap as every JSON route (read as a stream). */
export const handlers = {
  GET: nextAuth.handlers.GET,
  async POST(req: NextRequest): Promise<Response> {
    let body: Buffer;
    try {
      body = await readBodyCapped(req);
    } catch (err) {
      return errorResponse(err, newRequestId());
    }
    return nextAuth.handlers.POST(
      new NextRequest(req.url, { method: "POST", headers: req.headers, body: new Uint8Array(body) }),
    );
  },
};
