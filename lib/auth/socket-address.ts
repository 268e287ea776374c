import type { IncomingMessage } from "node:http";

/**
 * The address of the connection a request came on. `next start` keeps it to itself (it only fills
 * X-Forwarded-For with it when the client sent none), so the project's server (scripts/serve.ts)
 * writes it into this header of every request before Next.js sees it, over whatever a client
 * sent under that name. The app reads the header only in a process that server started: anywhere
 * else (next dev, next start) a client could have written it.
 */
const HEADER = "x-onchain-intel-socket-address";
const SERVED = Symbol.for("onchain-intel.socket-address-stamped");
const flags = globalThis as typeof globalThis & { [SERVED]?: boolean };

/** For the server, once before it serves: the function that stamps each request. */
export function stampSocketAddresses(): (req: IncomingMessage) => void {
  flags[SERVED] = true;
  return (req) => {
    const address = req.socket.remoteAddress;
    if (address) req.headers[HEADER] = address;
    else delete req.headers[HEADER];
  };
}

/** Whether this process serves through the project's server, which stamps every request. */
export const socketAddressesStamped = () => flags[SERVED] === true;

/** The connection's address as the server stamped it; null where it does not stamp. */
export const socketAddress = (headers: Headers): string | null =>
  socketAddressesStamped() ? headers.get(HEADER) : null;
