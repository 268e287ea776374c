import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { closeAllSessions } from "@/lib/auth/sessions";
import { SIGN_IN_EMAIL_LIMITS } from "@/lib/auth/sign-in-throttle";
import { PLANS } from "@/lib/domain/vocab";
import { ensureAccount } from "@/lib/keys/store";
import { serveArgs } from "@/scripts/embedded/web";
import { createTestDatabase } from "@/tests/setup/database";
import { freePort } from "@/tests/setup/server";
import { startFakeResend } from "@/worker/alerts/test/fake-servers";
import { authForm, type Browser, browser, type OwnServer, ownServer, signedIn as withSession } from "./own-server";

/**
 * Signing in, through the same requests a browser makes to Auth.js's routes, on servers of this
 * file's own: one configured for production (public origin https://intel.test, email through a
 * loopback Resend stand-in, DEV_SIGNIN=1 set by mistake, the tests trusted as a proxy on
 * loopback, so X-Forwarded-For names the client), one on the embedded defaults.
 */
const ORIGIN = "https://intel.test";
const SESSION = "__Secure-authjs.session-token";

describe("with email configured", () => {
  let server: OwnServer;
  let resend: Awaited<ReturnType<typeof startFakeResend>>;
  beforeAll(async () => {
    resend = await startFakeResend();
    server = await ownServer("oci_sign_in", () => ({
      APP_URL: ORIGIN,
      RESEND_API_KEY: "re_test",
      RESEND_BASE_URL: resend.url,
      DEV_SIGNIN: "1",
      TRUSTED_PROXIES: "loopback",
    }));
  });
  afterAll(async () => {
    await server?.close();
    await resend?.close();
  });

  /** Asks for a sign-in link from a client at `client` (its X-Forwarded-For), with more headers if given. */
  const askLink = (email: string, client: string, headers: Record<string, string> = {}) =>
    authForm(
      browser(server.baseUrl),
      "/api/auth/signin/resend",
      { email, callbackUrl: "/keys" },
      { "x-forwarded-for": client, ...headers },
    );
  const linksTo = (email: string) =>
    resend.sent.filter((m) => [m.to].flat().includes(email)).map((m) => m.text.match(/https?:\/\/\S+/)![0]);
  /** Opens a link from an email in a new browser; the server is reached directly, whatever the link's host. */
  async function open(link: string): Promise<{ browser: Browser; landed: Response }> {
    const b = browser(server.baseUrl);
    const url = new URL(link);
    return { browser: b, landed: await b.fetch(`${url.pathname}${url.search}`) };
  }
  // An account route (market routes and /api/status are public): revoking a key that does not
  // exist answers 404 to a live session and 401 to anyone else.
  const signedIn = async (b: Browser) =>
    (
      await b.fetch("/api/keys/key_none", {
        method: "DELETE",
        headers: { origin: ORIGIN, "content-type": "application/json" },
      })
    ).status === 404;

  it("builds the link on the configured origin, whatever X-Forwarded-Host says", async () => {
    const res = await askLink("victim@example.com", "198.51.100.1", {
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "http",
    });
    expect(res.status).toBe(302);
    const [link] = linksTo("victim@example.com");
    expect(new URL(link).origin).toBe(ORIGIN);
    expect(link).not.toContain("evil.example");
    const { browser: b, landed } = await open(link);
    expect(landed.headers.get("location")).toBe(`${ORIGIN}/keys`);
    expect(await signedIn(b)).toBe(true);
  });

  it("throttles sign-in emails per address and per client", async () => {
    const { perAddress, perClient } = SIGN_IN_EMAIL_LIMITS;
    const answers = [];
    for (let i = 0; i <= perAddress; i++) answers.push(await askLink("flooded@example.com", `198.51.100.${10 + i}`));
    expect(answers.slice(0, perAddress).every((r) => !r.headers.get("location")?.includes("error="))).toBe(true);
    expect(answers[perAddress].headers.get("location")).toMatch(/\/signin\?error=AccessDenied/);
    expect(linksTo("flooded@example.com")).toHaveLength(perAddress);

    for (let i = 0; i < perClient; i++) await askLink(`person${i}@example.com`, "203.0.113.77");
    expect((await askLink("one-too-many@example.com", "203.0.113.77")).headers.get("location")).toMatch(
      /error=AccessDenied/,
    );
    expect(linksTo("one-too-many@example.com")).toHaveLength(0);
  });

  it("counts an inbox once, however its address is spelt", async () => {
    const { perAddress } = SIGN_IN_EMAIL_LIMITS;
    const spellings = [
      "inbox.owner@gmail.com",
      "inboxowner+1@gmail.com",
      "Inbox.Owner+2@googlemail.com",
      "i.n.b.o.x.o.w.n.e.r@gmail.com",
    ];
    const asked = Array.from({ length: perAddress + 1 }, (_, i) => spellings[i % spellings.length]);
    const answers = [];
    for (const [i, email] of asked.entries())
      answers.push((await askLink(email, `198.51.100.${40 + i}`)).headers.get("location"));
    expect(answers.slice(0, perAddress).every((location) => !location?.includes("error="))).toBe(true);
    expect(answers[perAddress]).toMatch(/error=AccessDenied/);
    const spelt = new Set(spellings.map((e) => e.toLowerCase()));
    expect(resend.sent.filter((m) => [m.to].flat().some((to) => spelt.has(to)))).toHaveLength(perAddress);
  });

  it("revokes sessions: a signed-out cookie stops working; signing out everywhere ends every device's", async () => {
    const email = "two-devices@example.com";
    await askLink(email, "198.51.100.30");
    await askLink(email, "198.51.100.31");
    const [laptop, phone] = [(await open(linksTo(email)[0])).browser, (await open(linksTo(email)[1])).browser];
    expect([await signedIn(laptop), await signedIn(phone)]).toEqual([true, true]);
    expect(await (await phone.fetch("/")).text()).toContain("Sign out everywhere");

    const stolen = laptop.cookies.get(SESSION)!;
    await authForm(laptop, "/api/auth/signout", { callbackUrl: "/signin" });
    expect(laptop.cookies.has(SESSION)).toBe(false);
    const thief = browser(server.baseUrl);
    thief.cookies.set(SESSION, stolen);
    expect(await signedIn(thief)).toBe(false);
    expect(await signedIn(phone)).toBe(true);

    // What the dashboard's "Sign out everywhere" does for the signed-in user (lib/auth/sign-out.ts).
    const [user] = await server.sql<{ id: string }[]>`select id from users where email = ${email}`;
    await closeAllSessions(server.sql, user.id);
    expect(await signedIn(phone)).toBe(false);
  });

  it("ignores DEV_SIGNIN off the embedded defaults, and says so at the start", async () => {
    const b = browser(server.baseUrl);
    await authForm(b, "/api/auth/callback/dev", { email: "victim@example.com", callbackUrl: "/" });
    expect(b.cookies.has(SESSION)).toBe(false);
    expect(await signedIn(b)).toBe(false);
    expect(await (await fetch(`${server.baseUrl}/signin`)).text()).not.toContain("Dev sign-in");
    expect(server.output()).toContain("DEV_SIGNIN is ignored");
    expect(server.output()).toContain(`Sign-in links are emailed through Resend and point to ${ORIGIN}`);
  });
});

describe("the start", () => {
  it("is refused with real email configured and no public origin, saying what to set", async () => {
    const database = await createTestDatabase("oci_refused");
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATABASE_URL: database.url,
        RESEND_API_KEY: "re_test",
        NEXT_TELEMETRY_DISABLED: "1",
      };
      delete env.APP_URL;
      delete env.AUTH_URL;
      const child = spawn(process.execPath, serveArgs(await freePort()), {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout!.on("data", (d) => (output += d));
      child.stderr!.on("data", (d) => (output += d));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(1);
      expect(output).toContain("Refusing to start");
      expect(output).toContain("RESEND_API_KEY is set but APP_URL is not");
    } finally {
      await database.drop();
    }
  });
});

describe("on the embedded defaults", () => {
  let server: OwnServer;
  const SESSION_HTTP = "authjs.session-token";
  beforeAll(async () => {
    // What `npm start` gives the web app: its database in DATA_DIR's runtime file, no RPC_URL, no Resend.
    const dataDir = mkdtempSync(path.join(tmpdir(), "oci-embedded-"));
    server = await ownServer("oci_embedded", (databaseUrl) => {
      writeFileSync(path.join(dataDir, "runtime.json"), JSON.stringify({ databaseUrl }));
      return { DATA_DIR: dataDir, DEV_SIGNIN: "1" };
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const devSignIn = (b: Browser, email: string, headers: Record<string, string> = {}) =>
    authForm(b, "/api/auth/callback/dev", { email, callbackUrl: "/" }, headers);

  /** The dev sign-in posted with a Host header of our choosing (fetch cannot set one). */
  async function devSignInWithHost(email: string, host: string) {
    const b = browser(server.baseUrl);
    const { csrfToken } = (await (await b.fetch("/api/auth/csrf")).json()) as { csrfToken: string };
    const body = new URLSearchParams({ email, csrfToken, callbackUrl: "/" }).toString();
    return new Promise<{ location: string | undefined; cookies: string[] }>((resolve, reject) => {
      const req = request(`${server.baseUrl}/api/auth/callback/dev`, {
        method: "POST",
        headers: {
          host,
          cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve({ location: res.headers.location, cookies: res.headers["set-cookie"] ?? [] });
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  it("signs a newcomer in with the dev sign-in from this machine", async () => {
    expect(await (await fetch(`${server.baseUrl}/signin`)).text()).toContain("Dev sign-in");
    const b = browser(server.baseUrl);
    await devSignIn(b, "newcomer@example.com");
    expect(b.cookies.has(SESSION_HTTP)).toBe(true);
    expect((await b.fetch("/api/status")).status).toBe(200);
  });

  it("signs in as the dev accounts the start prints, each on its plan", async () => {
    // The accounts `npm start` makes on the embedded defaults (scripts/embedded/dev-keys.ts), one per plan.
    for (const plan of PLANS) {
      const email = `dev+${plan}@localhost`;
      await ensureAccount(server.db, email, plan);
      const b = browser(server.baseUrl);
      const res = await devSignIn(b, email);
      expect([email, res.headers.get("location")?.includes("error="), b.cookies.has(SESSION_HTTP)]).toEqual([
        email,
        false,
        true,
      ]);
      const [{ label }] = await server.sql<{ label: string }[]>`select label from plans where id = ${plan}`;
      const page = (await (await b.fetch("/plan")).text()).replaceAll("<!-- -->", "");
      expect(page).toContain(`data-testid="current-plan">${label}</strong>`);
    }
  });

  it("refuses the dev sign-in to another machine, to a page rebinding its name, and to email-link users", async () => {
    const remote = browser(server.baseUrl);
    const fromAfar = await devSignIn(remote, "newcomer@example.com", { "x-forwarded-for": "203.0.113.5" });
    expect(fromAfar.headers.get("location")).toMatch(/error=CredentialsSignin&code=not_loopback/);
    expect(remote.cookies.has(SESSION_HTTP)).toBe(false);

    const rebound = await devSignInWithHost("newcomer@example.com", "evil.example");
    expect(rebound.location).toMatch(/code=not_loopback/);
    expect(rebound.cookies.some((c) => c.startsWith(`${SESSION_HTTP}=`))).toBe(false);

    await server.db.insert(users).values({ email: "verified@example.com", emailVerified: new Date() });
    const verified = browser(server.baseUrl);
    const res = await devSignIn(verified, "verified@example.com");
    expect(res.headers.get("location")).toMatch(/code=email_account/);
    expect(verified.cookies.has(SESSION_HTTP)).toBe(false);
  });

  it("shows the operator's command on the plan page: whoever runs npm start is the operator", async () => {
    const { browser: b, accountId } = await withSession(server);
    const page = await b.fetch("/plan").then((r) => r.text());
    expect(page).toContain("plans are changed by its operator");
    expect(page).toContain(`npm run --silent keys -- set-plan ${accountId} pro`);
  });

  it("writes sign-in links to the log without Resend, and says so at the start", async () => {
    await authForm(browser(server.baseUrl), "/api/auth/signin/resend", {
      email: "local@example.com",
      callbackUrl: "/",
    });
    expect(server.output()).toContain("Sign-in links are written to this log");
    const logged = server
      .output()
      .split("\n")
      .find((l) => l.includes("sign-in link") && l.includes("local@example.com"));
    expect(logged).toMatch(/callback\/resend/);
  });
});
