import { Hono } from "hono";

/** Ponder requires an API module; the benchmark reads the peer's tables with SQL, as it reads ours. */
export default new Hono();
