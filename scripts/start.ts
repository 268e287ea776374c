/**
 * `npm start`: the whole product on embedded defaults. With no DATABASE_URL it serves PGlite on
 * loopback; it applies migrations, loads data, makes one ready key per plan, builds the web app
 * if needed and runs it. Ctrl-C stops everything; a second start resumes on the same data.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { connect, createDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { config, DATA_DIR, RUNTIME_FILE } from "@/lib/config";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "./embedded/database";
import { ensureDevKeys } from "./embedded/dev-keys";
import { loadInitialData } from "./embedded/initial-data";
import { buildIfStale, startWeb, waitForHttp } from "./embedded/web";
import { embeddedWebEnv } from "./embedded/web-env";

const EMBEDDED_DB_PORT = Number(process.env.EMBEDDED_DB_PORT ?? 54329);
const say = (line: string) => console.log(`[start] ${line}`);

const children: ChildProcess[] = [];
let embedded: EmbeddedDatabase | undefined;
let stopping = false;

async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  say("stopping...");
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once("exit", () => resolve());
          c.kill("SIGTERM");
          setTimeout(() => c.kill("SIGKILL"), 5_000).unref();
        }),
    ),
  );
  if (embedded) await embedded.stop();
  rmSync(RUNTIME_FILE, { force: true });
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

async function main() {
  mkdirSync(DATA_DIR, { recursive: true });
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedDatabase(DATA_DIR, EMBEDDED_DB_PORT);
    databaseUrl = embedded.url;
    // The keys CLI and other tools find the embedded database through this file.
    writeFileSync(RUNTIME_FILE, JSON.stringify({ databaseUrl, pid: process.pid }));
    say(`embedded database (PGlite) on ${databaseUrl}, data in ${DATA_DIR}`);
  }
  await runMigrations(databaseUrl);

  const sql = connect(databaseUrl, { max: 2 });
  const db = createDb(sql);
  await loadInitialData(sql, say);
  const keys = await ensureDevKeys(db, DATA_DIR);
  await sql.end();

  buildIfStale(say);
  const web = startWeb(config.PORT, { DATABASE_URL: databaseUrl, ...embeddedWebEnv(DATA_DIR, config.PORT) });
  children.push(web);
  web.once("exit", (code) => !stopping && (say(`web app exited (${code})`), void stop(1)));
  const base = `http://localhost:${config.PORT}`;
  await waitForHttp(`${base}/v1/health`, 60_000);

  say(`ready: ${base}  (API: ${base}/v1, OpenAPI: ${base}/v1/openapi.json)`);
  for (const [plan, key] of Object.entries(keys)) say(`  ${plan.padEnd(8)} key: ${key}`);
  say(`try: curl -H "Authorization: Bearer ${keys.api_tier}" "${base}/v1/tokens?limit=5"`);
}

main().catch((err) => {
  console.error(err);
  void stop(1);
});
