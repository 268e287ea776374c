import type { TestProject } from "vitest/node";
import { runMigrations } from "@/db/migrate";
import { buildIfStale } from "@/scripts/embedded/web";
import { loadFixture } from "@/scripts/fixtures";
import { createTestDatabase } from "./database";
import { startAppServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}

/**
 * One database with the fixed-seed fixture chain, indexed by the worker,
 * and one production server for the API tests.
 */
export default async function setup(project: TestProject) {
  const db = await createTestDatabase("oci_api_test");
  await runMigrations(db.url);
  await loadFixture(db.url, { size: "small", seed: 7 });

  await buildIfStale((line) => console.log(line));
  const server = await startAppServer({ DATABASE_URL: db.url });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", db.url);

  return async () => {
    await server.stop();
    await db.drop();
  };
}
