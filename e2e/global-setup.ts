import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { runMigrations } from "@/db/migrate";
import { buildIfStale } from "@/scripts/embedded/web";
import { loadFixture } from "@/scripts/fixtures";
import { createTestDatabase } from "@/tests/setup/database";
import { provideTestPostgres } from "@/tests/setup/postgres-server";
import { startAppServer } from "@/tests/setup/server";
import { startMailCatcher } from "./support/mail-catcher";
import { keepRunningApp } from "./support/state";

/**
 * A database of its own (on DATABASE_URL's server, or on a throwaway PostgreSQL with none) with
 * the fixed-seed fixture chain indexed by the worker, the production build (rebuilt when a source is newer)
 * and a server sending email (sign-in links too) to a local catcher. The tests find the server in
 * E2E_BASE_URL and the catcher in E2E_MAIL_URL.
 */
export default async function globalSetup() {
  // Undone in reverse order, after the run or as soon as a step fails.
  const cleanups: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    cleanups.push(await provideTestPostgres());
    const db = await createTestDatabase("oci_e2e");
    cleanups.push(db.drop);
    await runMigrations(db.url);
    await loadFixture(db.url, { size: "small", seed: 7 });
    await buildIfStale((line) => console.log(line));
    const mail = await startMailCatcher();
    cleanups.push(mail.close);
    const server = await startAppServer({
      DATABASE_URL: db.url,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      LOG_LEVEL: "warn",
      RESEND_API_KEY: "re_e2e_catcher",
      RESEND_BASE_URL: mail.url,
      // The tests browse from addresses of their own, as a proxy on loopback reports them.
      TRUSTED_PROXIES: "loopback",
    });
    cleanups.push(async () => {
      await server.stop();
      // The server's log, for reading after a failure.
      mkdirSync("test-results", { recursive: true });
      writeFileSync("test-results/e2e-server.log", server.output());
    });
    // Next.js reports loopback addresses to route handlers as "localhost", and Auth.js builds its
    // redirects from that: the browser uses the same name, so cookies and redirects agree.
    process.env.E2E_BASE_URL = server.baseUrl.replace("127.0.0.1", "localhost");
    process.env.E2E_MAIL_URL = mail.url;
    // The keys CLI, the one way to change a plan without billing, runs against it from the tests.
    process.env.E2E_DATABASE_URL = db.url;
    keepRunningApp({ stop });
  } catch (err) {
    await stop();
    throw err;
  }
}
