import { createHash } from "node:crypto";
import type { Sql } from "@/db/client";

/**
 * Sign-in emails per address and per client over a sliding window, counted in PostgreSQL so the
 * limits hold across web instances. The per-address limit keeps anyone from flooding an inbox;
 * the per-client one keeps one client from mailing many addresses.
 */
export const SIGN_IN_EMAIL_LIMITS = { perAddress: 5, perClient: 30, windowMinutes: 60 };

export class SignInThrottled extends Error {
  constructor() {
    super("Too many sign-in emails asked for; try again later.");
  }
}

const digest = (value: string) => createHash("sha256").update(value).digest("hex");

/** Counts one sign-in email to `address` from `client`, or throws SignInThrottled past a limit. */
export async function takeSignInEmail(sql: Sql, address: string, client: string): Promise<void> {
  const a = digest(address.trim().toLowerCase());
  const c = digest(client);
  const { perAddress, perClient, windowMinutes } = SIGN_IN_EMAIL_LIMITS;
  const allowed = await sql.begin(async (tx) => {
    // One request at a time per address, then per client (always in that order: no deadlock),
    // so racing requests cannot both take the last one allowed.
    await tx`select pg_advisory_xact_lock(1, hashtext(${a}))`;
    await tx`select pg_advisory_xact_lock(2, hashtext(${c}))`;
    const window = tx`now() - make_interval(mins => ${windowMinutes})`;
    const [used] = await tx<{ byAddress: number; byClient: number }[]>`
      select count(*) filter (where address_hash = ${a})::int as "byAddress",
             count(*) filter (where client_hash = ${c})::int as "byClient"
        from sign_in_requests
       where (address_hash = ${a} or client_hash = ${c}) and requested_at > ${window}`;
    if (used.byAddress >= perAddress || used.byClient >= perClient) return false;
    await tx`delete from sign_in_requests where (address_hash = ${a} or client_hash = ${c}) and requested_at <= ${window}`;
    await tx`insert into sign_in_requests (address_hash, client_hash) values (${a}, ${c})`;
    return true;
  });
  if (!allowed) throw new SignInThrottled();
}
