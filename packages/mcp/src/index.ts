export { createServer, type ServerOptions } from "./server.js";
