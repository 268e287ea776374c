import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { config, requireDatabaseUrl } from "@/lib/config";
import { boundToDeadline } from "./request-deadline";
import * as schema from "./schema";

export type Sql = postgres.Sql;

/** Connection options shared by the app, the worker and the CLIs. */
// biome-ignore lint/complexity/noBannedTypes: postgres.js types "no custom types" as {}
export function connect(url = requireDatabaseUrl(), options: postgres.Options<{}> = {}): Sql {
  return postgres(url, {
    max: config.DATABASE_POOL_MAX,
    connect_timeout: 3,
    idle_timeout: 30,
    onnotice: () => {},
    ...options,
    connection: {
      application_name: "onchain-intel",
      // Fail fast instead of queueing behind a dead socket; the app's pools go tighter (getSql).
      statement_timeout: config.REQUEST_TIMEOUT_MS * 2,
      // JIT compiles any plan whose estimate passes jit_above_cost, on every execution: tens of
      // milliseconds spent on queries that run in one, wherever a generic plan's row estimate is large.
      jit: "off",
      // The same estimate (a LIMIT parameter reads as a tenth of the table) can make a parallel
      // sequential scan and sort of the events look cheaper than walking an index for one page.
      max_parallel_workers_per_gather: "0",
      ...options.connection,
    },
  });
}

/** How the schema's property names become column names (drizzle.config.ts says the same). */
export const casing = "snake_case";

export function createDb(sql: Sql) {
  return drizzle(sql, { schema, casing });
}
export type Db = ReturnType<typeof createDb>;

const dialect = new PgDialect({ casing });

/** A SQL template as statement text and parameters, for a postgres.js handle (the worker's transactions). */
export function toQuery(query: SQL): { text: string; params: postgres.ParameterOrJSON<never>[] } {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { text, params: params as postgres.ParameterOrJSON<never>[] };
}

/**
 * Runs a SQL template as a named prepared statement. Drizzle's execute sends unnamed ones,
 * which PostgreSQL parses and plans on every call; for the API's hot read queries planning
 * cost as much as running them. Prepared, a connection plans each query text once (and
 * PostgreSQL keeps re-planning per call only where a generic plan would be worse).
 */
export function queryPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const { text, params } = toQuery(query);
  return db.$client.unsafe(text, params, { prepare: true }) as unknown as Promise<T[]>;
}

/**
 * LIMIT and OFFSET of a prepared statement's page, as subqueries: their values then stay out of
 * custom plans too, every plan of the statement costs the page alike, and PostgreSQL settles on
 * the generic plan. With the values in view it keeps planning the statement anew on every call,
 * which for the API's page queries costs more than running them. Without an offset, a LIMIT alone.
 */
export const pageWindow = (limit: number | SQL, offset?: number | SQL) =>
  sql`limit (select ${limit}::int)${offset === undefined ? sql`` : sql` offset (select ${offset}::bigint)`}`;

// One pool per process, created on first use (Next.js may import this module in several bundles).
const globalForDb = globalThis as unknown as { __sql?: Sql; __db?: Db; __authSql?: Sql };

/**
 * The app's pools stop a request's statements at its deadline (REQUEST_TIMEOUT_MS,
 * lib/api/handler.ts; db/request-deadline.ts), so a request that times out leaves nothing running,
 * sends nothing more and frees its connections. Each statement also gives up on its own before the
 * deadline would (statement_timeout: the deadline less a tenth for the request's work before its
 * query, auth and parsing), which ends a statement that runs outside any request's deadline too.
 */
export const requestBound = (applicationName: string) => ({
  application_name: applicationName,
  statement_timeout: Math.floor(config.REQUEST_TIMEOUT_MS * 0.9),
});

export function getSql(): Sql {
  globalForDb.__sql ??= boundToDeadline(connect(undefined, { connection: requestBound("onchain-intel") }));
  return globalForDb.__sql;
}

/**
 * The pool of authentication and metering (api_authorize, sessions): apart from the queries'
 * pool, so requests whose queries hold every connection (slow or blocked) cannot starve the
 * check that answers everyone else 401 or 429 at once. Its statements are single-row lookups.
 */
export function getAuthSql(): Sql {
  globalForDb.__authSql ??= boundToDeadline(
    connect(undefined, { max: 2, connection: requestBound("onchain-intel-auth") }),
  );
  return globalForDb.__authSql;
}

export function getDb(): Db {
  globalForDb.__db ??= createDb(getSql());
  return globalForDb.__db;
}
