import { insertSql, names, PREPARED, tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { authSessions } from "@/db/schema";
import { randomBase62 } from "@/lib/keys/secret";

/**
 * The registry of live sign-in sessions (auth_sessions). Sessions are JWTs in a cookie, which
 * alone could not be revoked; each carries the id of a row here and is honoured only while that
 * row exists: signing out deletes it, "sign out everywhere" deletes all of the user's.
 */
export const SESSION_MAX_AGE_S = 7 * 24 * 3600;

const s = names(authSessions);
const SESSIONS = tableName(authSessions);

/** Inserts session $1 of user $2, lasting $3 seconds, and deletes the user's expired sessions. */
const DELETE_EXPIRED = `delete from ${SESSIONS} where ${s.userId} = $2 and ${s.expires} <= now()`;
const OPEN_SESSION = `with expired as (${DELETE_EXPIRED}) ${insertSql(
  authSessions,
  { sessionToken: "$1", userId: "$2", expires: "now() + make_interval(secs => $3)" },
  "",
)}`;

/** Records a new session of the user (forgetting the user's expired ones); returns its id. */
export async function openSession(sql: Sql, userId: string): Promise<string> {
  const id = `ses_${randomBase62(32)}`;
  await sql.unsafe(OPEN_SESSION, [id, userId, SESSION_MAX_AGE_S]);
  return id;
}

export async function isSessionLive(sql: Sql, id: string): Promise<boolean> {
  const rows = await sql.unsafe(
    `select 1 from ${SESSIONS} where ${s.sessionToken} = $1 and ${s.expires} > now()`,
    [id],
    PREPARED,
  );
  return rows.length > 0;
}

export async function closeSession(sql: Sql, id: string): Promise<void> {
  await sql.unsafe(`delete from ${SESSIONS} where ${s.sessionToken} = $1`, [id]);
}

/** Signs the user out everywhere: every session of theirs stops working at its next request. */
export async function closeAllSessions(sql: Sql, userId: string): Promise<number> {
  const rows = await sql.unsafe(`delete from ${SESSIONS} where ${s.userId} = $1 returning 1`, [userId]);
  return rows.length;
}
