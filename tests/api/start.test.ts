import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "@/tests/setup/database";
import { freePort } from "@/tests/setup/server";

/**
 * `npm start` itself (scripts/start.ts) against a database of the test's own, as an operator runs
 * it beside a real PostgreSQL and node: the start migrates, starts the worker and the web app (the
 * production build the API tests use), and says it is ready.
 */
describe("npm start against a real DATABASE_URL", () => {
  it("hands out no dev keys: no account or key is made, printed or written to DATA_DIR", async () => {
    const database = await createTestDatabase("oci_start_real_db");
    const dataDir = mkdtempSync(path.join(tmpdir(), "oci-start-"));
    // A node nobody runs: the worker retries it, and nothing here needs it.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
    };
    for (const name of ["RESEND_API_KEY", "APP_URL", "AUTH_URL", "DEV_SIGNIN"]) delete env[name];
    const start = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/start.ts"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<void>((resolve) => start.once("exit", () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => {
        const read = (d: Buffer) => {
          output += d;
          // The start's last line: how to try a key, or why there is none.
          if (/\[start\] (try: curl|no dev keys)[^\n]*\n/.test(output)) resolve();
        };
        start.stdout!.on("data", read);
        start.stderr!.on("data", read);
        start.once("exit", (code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`)));
      });
    } finally {
      start.kill("SIGTERM");
      await exited;
    }
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      expect(await sql`select email from accounts`).toEqual([]);
      expect(await sql`select id from api_keys`).toEqual([]);
      expect(output).not.toContain("ocd_live_");
      expect(output).toContain("no dev keys off the embedded defaults");
      expect(existsSync(path.join(dataDir, "dev-keys.json"))).toBe(false);
    } finally {
      await sql.end();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
