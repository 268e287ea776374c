import { type SQL, sql } from "drizzle-orm";
import { aliasColumns } from "@/db/bulk";
import type { Db } from "@/db/client";
import { accounts, apiKeys, billingCustomers, billingMeterReports, usageDaily } from "@/db/schema";

/**
 * API Tier usage as Stripe meter events (billing_meter_reports). The requests of an account's
 * keys and of its dashboard (metered as one more key: db/functions/metering.sql) are counted per
 * UTC day in usage_daily; what has been reported is the highest `through` of the day's rows.
 * These functions run with the account's row locked (see lockAccount), so two writers never
 * report the same requests twice.
 */

/** Stripe accepts meter events up to 35 days old; a past day is stamped on its last second. */
const STRIPE_MAX_EVENT_AGE_DAYS = 34;

const u = aliasColumns(usageDaily, "u");
const k = aliasColumns(apiKeys, "k");
const c = aliasColumns(billingCustomers, "c");
const r = aliasColumns(billingMeterReports, "r");

const utcDay = (now: Date) => sql`(${now.toISOString()}::timestamptz at time zone 'UTC')::date`;

/**
 * The account's billed requests per UTC day: its keys' (revoked ones too) and its dashboard's
 * meter's, 'dashboard:' and the account's id (db/functions/metering.sql).
 */
const dailyRequests = (accountId: string) => sql`
  select ${u.day}, sum(${u.requests})::int as requests
    from ${usageDaily} u
   where ${u.keyId} in (select ${k.id} from ${apiKeys} k where ${k.accountId} = ${accountId})
      or ${u.keyId} = ${`dashboard:${accountId}`}
   group by ${u.day}`;

/**
 * A row of billing_meter_reports as SQL expressions, every column in the table's order (Drizzle's
 * insert-select checks both), each aliased as its column.
 */
const reportRow = (fields: { [K in keyof typeof billingMeterReports.$inferInsert]-?: SQL }) =>
  Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value.as(key)])) as {
    [K in keyof typeof fields]: SQL.Aliased;
  };

/** Locks the account's row for the rest of the transaction (billing's per-account order). */
export async function lockAccount(tx: Db, accountId: string): Promise<boolean> {
  const rows = await tx.execute(sql`select 1 from ${accounts} where ${accounts.id} = ${accountId} for no key update`);
  return rows.length > 0;
}

/**
 * Metering starts now: today's requests so far were made on another plan and are never billed.
 * Only for accounts with a Stripe customer (the meter events go to it).
 */
export async function startMetering(tx: Db, accountId: string, now: Date): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await tx
    .insert(billingMeterReports)
    .select((qb) =>
      qb
        .select(
          reportRow({
            identifier: sql`'baseline:' || ${accountId} || ':' || t.day || ':' || coalesce(u.requests, 0)`,
            accountId: sql`${accountId}`,
            day: sql`t.day`,
            kind: sql`'baseline'`,
            through: sql`coalesce(u.requests, 0)`,
            value: sql`0`,
            eventTime: at,
            createdAt: sql`now()`,
            reportedAt: at,
            lastError: sql`null`,
          }),
        )
        .from(sql`(select ${utcDay(now)} as day) t left join (${dailyRequests(accountId)}) u on u.day = t.day`)
        .where(sql`exists (select 1 from ${billingCustomers} c where ${c.accountId} = ${accountId})`),
    )
    .onConflictDoNothing({ target: billingMeterReports.identifier });
}

/**
 * Writes a pending usage row for every metered day with requests not yet reported: days since
 * metering last started, within Stripe's window. Each row's identifier is account, day and the
 * count it reports through, so a row written twice (or sent twice) is one meter event.
 */
export async function enqueueUnreportedUsage(tx: Db, accountId: string, now: Date): Promise<number> {
  const rows = await tx
    .insert(billingMeterReports)
    .select((qb) =>
      qb
        .select(
          reportRow({
            identifier: sql`${accountId} || ':' || u.day || ':' || u.requests`,
            accountId: sql`${accountId}`,
            day: sql`u.day`,
            kind: sql`'usage'`,
            through: sql`u.requests`,
            value: sql`u.requests - coalesce(r.through, 0)`,
            // A past day's requests are stamped on its last second, so they fall in its billing period.
            eventTime: sql`least(${now.toISOString()}::timestamptz,
                                 ((u.day + 1)::timestamp at time zone 'UTC') - interval '1 second')`,
            createdAt: sql`now()`,
            reportedAt: sql`null`,
            lastError: sql`null`,
          }),
        )
        .from(sql`(${dailyRequests(accountId)}) u
          join (select greatest(max(${r.day}), ${utcDay(now)} - ${STRIPE_MAX_EVENT_AGE_DAYS}::int) as day
                  from ${billingMeterReports} r where ${r.accountId} = ${accountId} and ${r.kind} = 'baseline') since
            on u.day >= since.day
          left join lateral (
            select max(${r.through}) as through from ${billingMeterReports} r
             where ${r.accountId} = ${accountId} and ${r.day} = u.day
          ) r on true`)
        .where(sql`u.requests > coalesce(r.through, 0)`),
    )
    .onConflictDoNothing({ target: billingMeterReports.identifier })
    .returning({ identifier: billingMeterReports.identifier });
  return rows.length;
}

export type MonthlyUsage = {
  /** First day of the month, YYYY-MM-DD (UTC). */
  month: string;
  /** Requests of all the account's keys and its dashboard's meter this month. */
  requests: number;
  /** Requests reported to Stripe as metered usage this month, and those still to send. */
  reported: number;
  pending: number;
};

/** This month's requests and how many of them were reported to Stripe for billing. */
export async function monthlyUsage(db: Db, accountId: string, now: Date): Promise<MonthlyUsage> {
  const [row] = await db.execute<{ month: string; requests: number; reported: number; pending: number }>(sql`
    with month as (select date_trunc('month', ${utcDay(now)})::date as day)
    select (select day from month)::text as month,
           coalesce((select sum(u.requests) from (${dailyRequests(accountId)}) u
                      where u.day >= (select day from month)), 0)::int as requests,
           coalesce(sum(${r.value}) filter (where ${r.reportedAt} is not null), 0)::int as reported,
           coalesce(sum(${r.value}) filter (where ${r.reportedAt} is null), 0)::int as pending
      from ${billingMeterReports} r
     where ${r.accountId} = ${accountId} and ${r.kind} = 'usage' and ${r.day} >= (select day from month)`);
  return row;
}
