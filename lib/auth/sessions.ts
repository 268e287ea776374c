import type { Sql } from "@/db/client";
import { randomBase62 } from "@/lib/keys/secret";

/**
 * The registry of live sign-in sessions (auth_sessions). Sessions are JWTs in a cookie, which
 * alone could not be revoked; each carries the id of a row here and is honoured only while that
 * row exists: signing out deletes it, "sign out everywhere" deletes all of the user's.
 */
export const SESSION_MAX_AGE_S = 7 * 24 * 3600;

/** Records a new session of the user (forgetting the user's expired ones); returns its id. */
export async function openSession(sql: Sql, userId: string): Promise<string> {
  const id = `ses_${randomBase62(32)}`;
  await sql`
    with expired as (delete from auth_sessions where user_id = ${userId} and expires <= now())
    insert into auth_sessions (session_token, user_id, expires)
    values (${id}, ${userId}, now() + make_interval(secs => ${SESSION_MAX_AGE_S}))`;
  return id;
}

export async function isSessionLive(sql: Sql, id: string): Promise<boolean> {
  const rows = await sql`select 1 from auth_sessions where session_token = ${id} and expires > now()`;
  return rows.length > 0;
}

export async function closeSession(sql: Sql, id: string): Promise<void> {
  await sql`delete from auth_sessions where session_token = ${id}`;
}

/** Signs the user out everywhere: every session of theirs stops working at its next request. */
export async function closeAllSessions(sql: Sql, userId: string): Promise<number> {
  const rows = await sql`delete from auth_sessions where user_id = ${userId} returning 1`;
  return rows.length;
}
