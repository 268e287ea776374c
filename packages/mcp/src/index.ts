export { createServer, type ServerOptions } from "./server.ts";
