/**
 * `npm run serve` (and the web app of `npm start`): the production build, served as `next start`
 * serves it, but each request stamped first with the address of the connection it came on
 * (lib/auth/socket-address.ts), which `next start` keeps to itself. Limits on visitors without an
 * account and the sign-in throttle then count an address the client cannot choose
 * (lib/auth/client-address.ts). Options as next start's: -p/--port (else PORT, else 3000) and
 * -H/--hostname (else every interface).
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { stampSocketAddresses } from "@/lib/auth/socket-address";

const { values } = parseArgs({
  options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname;

// What next start sets: React and Next.js run their production builds.
Object.assign(process.env, { NODE_ENV: "production" });
const { default: next } = await import("next");

const stamp = stampSocketAddresses();
const app = next({ dev: false, hostname: hostname ?? "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();
const upgrade = app.getUpgradeHandler();

const server = createServer(async (req, res) => {
  stamp(req);
  try {
    await handle(req, res);
  } catch (err) {
    console.error(`Failed to handle request for ${req.url}`, err);
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  }
});
// Idle connections are kept longer than clients and proxies keep theirs (60 s is the usual load
// balancer's). Node's own 5 s races a client's 5 s: the client reuses a socket the server is
// closing and reads ECONNRESET. Headers get a little longer still, as Node's documentation asks.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.on("upgrade", (req, socket, head) => {
  stamp(req);
  upgrade(req, socket, head).catch(() => socket.destroy());
});
server.on("error", (err) => {
  console.error(`Failed to start the server: ${err.message}`);
  process.exit(1);
});
// Stop taking connections and exit once the open ones have closed: what else listens for the
// signal (the event stream's hub ends its streams with a last message) gets to finish first.
// A connection that stays open past the grace period is cut.
const SHUTDOWN_GRACE_MS = 5_000;
const shutDown = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref();
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, shutDown);
server.listen(port, hostname, () => console.log(`Serving on http://${hostname ?? "localhost"}:${port}`));
