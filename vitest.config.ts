import path from "node:path";
import { defineConfig } from "vitest/config";

// The workspace packages resolve to their sources, as in tsconfig.json's paths (no build needed to test them).
const alias = {
  "@": path.resolve(import.meta.dirname),
  "onchain-intel-mcp": path.resolve(import.meta.dirname, "packages/mcp/src/index.ts"),
  "onchain-intel": path.resolve(import.meta.dirname, "packages/sdk/src/index.ts"),
};
const ignored = ["node_modules/**", "e2e/**", ".next/**", ".data/**"];
// The PostgreSQL the tests create their databases on, first in each project's global setup
// (Vitest runs a root-level one only after the projects'). The first project to run it starts
// the server and sets DATABASE_URL, which later projects and the test workers (forked after)
// inherit; a project's setups are torn down in reverse, so the server outlives their databases.
const testPostgres = "tests/setup/postgres-server.ts";

export default defineConfig({
  resolve: { alias },
  test: {
    // Inherited by the projects (extends: true): Vitest's 5 s default fails slow tests on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 300_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "{app,lib,scripts,devchain,worker,db,components}/**/*.test.ts",
            "packages/*/{src,scripts}/**/*.test.ts",
          ],
          exclude: ignored,
          globalSetup: [testPostgres],
          // Alerts made through the alerts service point at receivers on loopback, as the API test server allows.
          env: { WEBHOOK_ALLOW_PRIVATE: "1" },
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          // The packages' tests against the real server share its one build, database and fixture.
          include: ["tests/api/**/*.test.ts", "packages/*/test/**/*.test.ts"],
          exclude: ignored,
          globalSetup: [testPostgres, "tests/setup/api-server.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
