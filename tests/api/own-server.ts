import { randomBytes } from "node:crypto";
import { encode } from "next-auth/jwt";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { users } from "@/db/schema";
import { linkAccount } from "@/lib/auth/link-account";
import { openSession } from "@/lib/auth/sessions";
import { createTestDatabase } from "@/tests/setup/database";
import { type AppServer, startAppServer } from "@/tests/setup/server";

/**
 * A production server of a test file's own, on a migrated database of its own, for what the
 * shared one cannot show: configurations (public origin, email, embedded defaults, deadlines,
 * pool size) and sessions (it has an AUTH_SECRET).
 */
export type OwnServer = AppServer & {
  secret: string;
  sql: Sql;
  db: Db;
  databaseUrl: string;
  close: () => Promise<void>;
};

export async function ownServer(
  prefix: string,
  env: (databaseUrl: string) => Record<string, string>,
): Promise<OwnServer> {
  const database = await createTestDatabase(prefix);
  await runMigrations(database.url);
  const sql = connect(database.url, { max: 4 });
  const secret = randomBytes(32).toString("base64url");
  try {
    const server = await startAppServer({ DATABASE_URL: database.url, AUTH_SECRET: secret, ...env(database.url) });
    return {
      ...server,
      secret,
      sql,
      db: createDb(sql),
      databaseUrl: database.url,
      close: async () => {
        await server.stop();
        await sql.end();
        await database.drop();
      },
    };
  } catch (err) {
    await sql.end();
    await database.drop();
    throw err;
  }
}

/** One browser's cookies against a server: redirects are not followed, so each step shows. */
export function browser(baseUrl: string) {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return {
    cookies,
    async fetch(path: string, init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {}) {
      const res = await fetch(new URL(path, baseUrl), {
        ...init,
        redirect: "manual",
        headers: { ...(cookies.size ? { cookie: cookieHeader() } : {}), ...init.headers },
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair, ...attributes] = line.split(";");
        const name = pair.slice(0, pair.indexOf("=")).trim();
        const value = pair.slice(pair.indexOf("=") + 1);
        const expired = !value || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
        if (expired) cookies.delete(name);
        else cookies.set(name, value);
      }
      return res;
    },
  };
}
export type Browser = ReturnType<typeof browser>;

/** Posts one of Auth.js's forms (sign-in, sign-out) with its CSRF token, as its pages do. */
export async function authForm(
  b: Browser,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const { csrfToken } = (await (await b.fetch("/api/auth/csrf", { headers })).json()) as { csrfToken: string };
  return b.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ ...fields, csrfToken }).toString(),
  });
}

/**
 * A signed-in user and their account, with a session cookie as Auth.js would have set it (the
 * session registered, the JWT sealed with the server's secret): for tests of what a session may
 * do, not of how one is obtained (tests/api/sign-in.test.ts does that through email links). The
 * cookie name is the one of an http APP_URL.
 */
export async function signedIn(
  server: Pick<OwnServer, "db" | "sql" | "secret" | "baseUrl">,
  email = `${randomBytes(6).toString("hex")}@example.com`,
) {
  const [user] = await server.db.insert(users).values({ email }).returning();
  const accountId = await linkAccount(server.db, user.id, email);
  const sid = await openSession(server.sql, user.id);
  const name = "authjs.session-token";
  const token = await encode({ token: { sub: user.id, email, sid }, secret: server.secret, salt: name });
  const b = browser(server.baseUrl);
  b.cookies.set(name, token);
  return { browser: b, userId: user.id, accountId, email };
}
