import { createHash } from "node:crypto";
import { insertRows, names, tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { signInRequests } from "@/db/schema";

/**
 * Sign-in emails per inbox and per client over a sliding window, counted in PostgreSQL so the
 * limits hold across web instances. The per-inbox limit keeps anyone from flooding an inbox
 * (however its address is spelt); the per-client one (clientMeter: an address, IPv6 by its /64)
 * keeps one client from mailing many inboxes.
 */
export const SIGN_IN_EMAIL_LIMITS = { perAddress: 5, perClient: 30, windowMinutes: 60 };

export class SignInThrottled extends Error {
  constructor() {
    super("Too many sign-in emails asked for; try again later.");
  }
}

const r = names(signInRequests);
/** The requests of address hash $1 or client hash $2 within (or before) the last $3 minutes. */
const ofEither = (inWindow: boolean) =>
  `from ${tableName(signInRequests)} where (${r.addressHash} = $1 or ${r.clientHash} = $2)
     and ${r.requestedAt} ${inWindow ? ">" : "<="} now() - make_interval(mins => $3)`;
/** How many requests in the window are of the address and of the client. */
const COUNT_RECENT = `select count(*) filter (where ${r.addressHash} = $1)::int as "byAddress",
                            count(*) filter (where ${r.clientHash} = $2)::int as "byClient" ${ofEither(true)}`;
/** Forgets their requests older than the window. */
const FORGET_OLD = `delete ${ofEither(false)}`;

const digest = (value: string) => createHash("sha256").update(value).digest("hex");

/** Providers that deliver a.b.c@ to abc@, and the domain their addresses share. */
const DOTLESS = new Map([
  ["gmail.com", "gmail.com"],
  ["googlemail.com", "gmail.com"],
]);

/**
 * The inbox an address delivers to, so its spellings count as one: lowercase, without a
 * +subaddress (most providers deliver name+tag@ to name@; where one does not, two inboxes share
 * a limit, which only makes it stricter), without dots where the provider ignores them.
 */
export function inboxOf(address: string): string {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf("@");
  if (at < 0) return email;
  let local = email.slice(0, at).replace(/\+.*$/, "");
  let domain = email.slice(at + 1);
  const dotless = DOTLESS.get(domain);
  if (dotless) [local, domain] = [local.replaceAll(".", ""), dotless];
  return `${local}@${domain}`;
}

/** Counts one sign-in email to `address`'s inbox from `client`, or throws SignInThrottled past a limit. */
export async function takeSignInEmail(sql: Sql, address: string, client: string): Promise<void> {
  const a = digest(inboxOf(address));
  const c = digest(client);
  const { perAddress, perClient, windowMinutes } = SIGN_IN_EMAIL_LIMITS;
  const allowed = await sql.begin(async (tx) => {
    // One request at a time per address, then per client (always in that order: no deadlock),
    // so racing requests cannot both take the last one allowed.
    await tx`select pg_advisory_xact_lock(1, hashtext(${a}))`;
    await tx`select pg_advisory_xact_lock(2, hashtext(${c}))`;
    const [used] = await tx.unsafe<{ byAddress: number; byClient: number }[]>(COUNT_RECENT, [a, c, windowMinutes]);
    if (used.byAddress >= perAddress || used.byClient >= perClient) return false;
    await tx.unsafe(FORGET_OLD, [a, c, windowMinutes]);
    await insertRows(tx, signInRequests, [{ addressHash: a, clientHash: c }]);
    return true;
  });
  if (!allowed) throw new SignInThrottled();
}
