import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/**
 * PGlite served over the Postgres wire protocol on loopback, so the web app, the worker and
 * the CLIs use the same postgres.js code path as with a real server.
 */
export async function startEmbeddedDatabase(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const dir = path.join(dataDir, "pglite");
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: 32 });
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
