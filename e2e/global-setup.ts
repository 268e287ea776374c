import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { loadDataset } from "@/scripts/dataset";
import { buildIfStale } from "@/scripts/embedded/web";
import { createTestDatabase } from "@/tests/setup/database";
import { startAppServer } from "@/tests/setup/server";
import { keepRunningApp } from "./support/state";

/**
 * A database of its own with the fixed-seed dataset, the production build (rebuilt when a source
 * is newer) and a server with the dev sign-in on. The tests find the server in E2E_BASE_URL.
 */
export default async function globalSetup() {
  const db = await createTestDatabase("oci_e2e");
  try {
    await runMigrations(db.url);
    const sql = connect(db.url, { max: 4 });
    await loadDataset(sql, { size: "small", seed: 7 });
    await sql.end();
    buildIfStale((line) => console.log(line));
    const server = await startAppServer({
      DATABASE_URL: db.url,
      DEV_SIGNIN: "1",
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      LOG_LEVEL: "warn",
    });
    process.env.E2E_BASE_URL = server.baseUrl;
    keepRunningApp({
      stop: async () => {
        await server.stop();
        // The server's log, for reading after a failure.
        mkdirSync("test-results", { recursive: true });
        writeFileSync("test-results/e2e-server.log", server.output());
        await db.drop();
      },
    });
  } catch (err) {
    await db.drop();
    throw err;
  }
}
