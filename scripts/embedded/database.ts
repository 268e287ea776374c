import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
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

/** Runs the embedded database in a child process and resolves with its URL once it is up. */
export async function spawnEmbeddedDatabase(dataDir: string, port: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/embedded/database-process.ts", dataDir, String(port)], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { databaseUrl: string }).databaseUrl));
    child.once("exit", (code) => reject(new Error(`embedded database exited (${code})`)));
  });
  return { url, child };
}
