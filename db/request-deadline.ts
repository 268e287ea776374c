import { AsyncLocalStorage } from "node:async_hooks";
import type postgres from "postgres";

/**
 * A request's deadline carried into its statements. A request that times out has answered 500
 * (lib/api/response.ts, withDeadline), but its handler would go on issuing statements, each up to
 * statement_timeout. Its work runs with an AbortSignal in async context (underDeadline); a pool
 * bound to it (boundToDeadline: the app's pools, db/client.ts) refuses a statement once the
 * signal has aborted and cancels, when it aborts, the ones it sent (PostgreSQL's cancel request,
 * which ends the running statement and the transaction around it; one still waiting for a
 * connection leaves the queue). Work shared with other requests (a cached load, an index being
 * built) belongs to the request that started it and stops with it; its failure is not kept.
 * Kept on globalThis: Next.js may bundle this module once per route, and a route's deadline must
 * reach the pool another bundle made.
 */
const store = globalThis as typeof globalThis & { __requestDeadline?: AsyncLocalStorage<AbortSignal> };
const deadlines = (store.__requestDeadline ??= new AsyncLocalStorage<AbortSignal>());

export class DeadlinePassed extends Error {
  readonly code = "DEADLINE_PASSED";
  constructor() {
    super("The request's deadline has passed: the statement was not sent.");
  }
}

/** Runs `work` with `signal` as its deadline: the statements it issues through a bound pool stop when it aborts. */
export const underDeadline = <T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> =>
  deadlines.run(signal, work);

type Query = postgres.PendingQuery<postgres.Row[]>;

/** Throws if the running work's deadline has passed. */
function refuseLate(): AbortSignal | undefined {
  const signal = deadlines.getStore();
  if (signal?.aborted) throw new DeadlinePassed();
  return signal;
}

/** `query`, cancelled when `signal` aborts if it has been sent by then (one never sent is just dropped). */
function cancelledAtDeadline<Q>(query: Q, signal: AbortSignal | undefined): Q {
  const q = query as Q & Query & { executed?: boolean };
  signal?.addEventListener("abort", () => q.executed && void q.cancel(), { once: true });
  return q;
}

/** The arguments of begin or savepoint with the callback's handle (the transaction's, the savepoint's) bound too. */
function boundCallback(args: unknown[]): unknown[] {
  const fn = args.at(-1);
  if (typeof fn !== "function") return args;
  return [...args.slice(0, -1), (sql: postgres.Sql) => fn(boundToDeadline(sql))];
}

/**
 * `sql` with the running work's deadline applied to every statement made through it: tagged
 * templates, unsafe and file, and those of its transactions and savepoints (a statement made
 * outside any deadline runs as before).
 */
export function boundToDeadline<S extends postgres.Sql>(sql: S): S {
  return new Proxy(sql, {
    apply(target, self, args: Parameters<postgres.Sql>) {
      // A tagged template is a statement (or a fragment of one, which is never sent alone); a
      // call with a string or an object is a helper (an identifier, a list of values).
      const tagged = Array.isArray((args[0] as { raw?: unknown })?.raw);
      const signal = tagged ? refuseLate() : undefined;
      const made = Reflect.apply(target, self, args);
      return tagged ? cancelledAtDeadline(made, signal) : made;
    },
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "unsafe" || prop === "file") {
        return (...args: unknown[]) => {
          const signal = refuseLate();
          return cancelledAtDeadline(value(...args), signal);
        };
      }
      if (prop === "begin" || prop === "savepoint") {
        return (...args: unknown[]) => {
          refuseLate();
          return value(...boundCallback(args));
        };
      }
      if (prop === "reserve") return async () => boundToDeadline(await value());
      return value;
    },
  });
}
