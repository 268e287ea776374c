import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };
const ignored = ["node_modules/**", "e2e/**", ".next/**", ".data/**"];

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 60_000,
    hookTimeout: 300_000,
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["{lib,scripts,devchain,worker,db}/**/*.test.ts"], exclude: ignored },
      },
      {
        resolve: { alias },
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          exclude: ignored,
          globalSetup: ["tests/setup/api-server.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
