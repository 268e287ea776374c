import postgres from "postgres";
import { randomBase62 } from "@/lib/keys/secret";

/** The server tests run against: DATABASE_URL (CI) or the machine's local PostgreSQL. */
export const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database of its own for one test run; `drop` removes it. */
export async function createTestDatabase(prefix: string) {
  const name = `${prefix}_${randomBase62(8).toLowerCase()}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  return {
    name,
    url: databaseUrl(name),
    drop: async () => {
      const a = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}
