import postgres from "postgres";
import { sleep } from "./sleep";

/** Advisory lock key: (class, chain id), so one active worker per chain and database. */
const LOCK_CLASS = 0x1d3e;

export type Leadership = {
  /** Whether this session still holds the lock (false when the connection was lost and another took it). */
  check(): Promise<boolean>;
  release(): Promise<void>;
};

/**
 * Waits as a standby until this process holds the worker's session-level advisory lock, on a
 * dedicated connection (a pooled one could hand the session, and the lock, to other queries).
 * The lock is released by Postgres when that session ends, so a killed worker's standby takes
 * over within `retryMs`. Returns null when `signal` aborts first.
 */
export async function acquireLeadership(
  databaseUrl: string,
  chainId: number,
  opts: { signal?: AbortSignal; retryMs?: number; onStandby?: () => void } = {},
): Promise<Leadership | null> {
  const conn = postgres(databaseUrl, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    connect_timeout: 5,
    onnotice: () => {},
  });
  // Re-entrant in the holding session; false in any other, including a reconnected one of ours.
  const tryLock = async () =>
    (await conn`select pg_try_advisory_lock(${LOCK_CLASS}, ${chainId}) as ok`)[0].ok as boolean;
  let announced = false;
  while (!opts.signal?.aborted) {
    const ok = await tryLock().catch(() => false);
    if (ok) {
      return {
        check: () => tryLock().catch(() => false),
        release: async () => {
          await conn`select pg_advisory_unlock_all()`.catch(() => {});
          await conn.end({ timeout: 2 });
        },
      };
    }
    if (!announced) opts.onStandby?.();
    announced = true;
    await sleep(opts.retryMs ?? 1_000, opts.signal);
  }
  await conn.end({ timeout: 2 });
  return null;
}
