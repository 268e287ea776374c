/**
 * The embedded database in a process of its own: PGlite executes queries synchronously, so it
 * must not share an event loop with the launcher's supervision or anything else.
 * argv: DATA_DIR PORT. Prints one JSON line {"databaseUrl": …} once it accepts connections.
 */
import { startEmbeddedDatabase } from "./database";

const [dataDir, port] = process.argv.slice(2);
const db = await startEmbeddedDatabase(dataDir, Number(port));
console.log(JSON.stringify({ databaseUrl: db.url }));

const stop = () => void db.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
// Exit with the launcher, however it dies.
process.on("disconnect", stop);
