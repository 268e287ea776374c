import postgres from "postgres";
import { randomBase62 } from "@/lib/keys/secret";

/**
 * The server tests create their databases on: DATABASE_URL, which the test runners' global
 * setups provide (tests/setup/postgres-server.ts); scripts run on their own (benchmarks, the
 * scoring evaluation) fall back to the machine's local PostgreSQL. Read when used, since the
 * global setups set it after this module is loaded.
 */
export const serverUrl = () => process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database of its own for one test run; `drop` removes it. */
export async function createTestDatabase(prefix: string) {
  const name = `${prefix}_${randomBase62(8).toLowerCase()}`;
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  return {
    name,
    url: databaseUrl(name),
    drop: async () => {
      const a = postgres(serverUrl(), { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}
