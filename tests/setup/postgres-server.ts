import { type EmbeddedDatabase, startEmbeddedDatabase } from "@/scripts/embedded/database";
import { EmbeddedPostgresError } from "@/scripts/embedded/postgres-failure";
import { freePort } from "./server";

/**
 * A throwaway embedded PostgreSQL on a port the OS says is free, with its data in a temporary
 * directory that goes with it. Another process may take the port between our asking and the
 * server binding it: then it tries another one.
 */
export async function startThrowawayPostgres(): Promise<EmbeddedDatabase> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEmbeddedDatabase({ port: await freePort() });
    } catch (err) {
      if (attempt === 3 || !(err instanceof EmbeddedPostgresError && err.reason === "port-in-use")) throw err;
    }
  }
}

/**
 * The server a test run creates its databases on: DATABASE_URL's, or with none one throwaway
 * PostgreSQL for the whole run, whose URL goes into DATABASE_URL for everything started after.
 * Resolves with what stops it (nothing to stop for DATABASE_URL's server).
 */
export async function provideTestPostgres(): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) return async () => {};
  const server = await startThrowawayPostgres();
  process.env.DATABASE_URL = server.url;
  return server.stop;
}

/** Vitest's global setup (see vitest.config.ts); the test workers fork after it. */
export default provideTestPostgres;
