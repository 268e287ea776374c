import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";
import { SessionQueue } from "./session-queue";

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/**
 * PGlite served over the Postgres wire protocol on loopback, so the web app, the worker and
 * the CLIs use the same postgres.js code path as with a real server. pglite-socket parses the
 * protocol; our SessionQueue decides whose messages run (see its comment).
 */
export async function startEmbeddedDatabase(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const dir = path.join(dataDir, "pglite");
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const queue = new SessionQueue(db);
  const handlers = new Set<PGLiteSocketHandler>();

  const server: Server = createServer((socket) => {
    const handler = new PGLiteSocketHandler({ queryQueue: queue as never, closeOnDetach: true });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener("close", forget);
    handler.addEventListener("error", forget);
    handler.attach(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });

  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await Promise.all([...handlers].map((h) => h.detach(true)));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
