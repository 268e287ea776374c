import { sql } from "drizzle-orm";
import { aliasColumns } from "@/db/bulk";
import type { Db } from "@/db/client";
import type { SqlRow } from "@/db/rows";
import { accounts, apiKeys, plans, usageDaily } from "@/db/schema";

const k = aliasColumns(apiKeys, "k");
const a = aliasColumns(accounts, "a");
const p = aliasColumns(plans, "p");
const u = aliasColumns(usageDaily, "u");

/** A key with its limits and one of its days in the window (none: the key's days are all empty). */
type UsageRow = SqlRow<typeof apiKeys, "name" | "prefix" | "revokedAt"> & {
  key_id: string;
  daily_limit: number;
  minute_limit: number;
  day: string | null;
  requests: number | null;
  rejected: number | null;
};

export type KeyUsage = {
  keyId: string;
  name: string;
  prefix: string;
  revoked: boolean;
  /** The key's own limits: the plan's, or the key's override (API Tier). */
  dailyLimit: number;
  minuteLimit: number;
  /** One entry per UTC day, oldest first, days without requests included. */
  days: { day: string; requests: number; rejected: number }[];
};

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** Requests per key per UTC day over the last `days` days (usage_daily), with each key's limits. */
export async function dailyUsageByKey(db: Db, accountId: string, days: number, now: Date): Promise<KeyUsage[]> {
  const dayList = Array.from({ length: days }, (_, i) => utcDay(new Date(now.getTime() - (days - 1 - i) * 86_400_000)));
  const rows = await db.execute<UsageRow>(sql`
    select ${k.id} as key_id, ${k.name}, ${k.prefix}, ${k.revokedAt},
           coalesce(${k.ratePerDay}, ${p.ratePerDay}) as daily_limit,
           coalesce(${k.ratePerMinute}, ${p.ratePerMinute}) as minute_limit,
           ${u.day}::text as day, ${u.requests}, ${u.rejected}
      from ${apiKeys} k
      join ${accounts} a on ${a.id} = ${k.accountId}
      join ${plans} p on ${p.id} = ${a.plan}
      left join ${usageDaily} u on ${u.keyId} = ${k.id} and ${u.day} >= ${dayList[0]}::date
     where ${k.accountId} = ${accountId}
     order by ${k.createdAt} desc, ${k.id}`);

  const byKey = new Map<string, KeyUsage>();
  for (const r of rows) {
    let key = byKey.get(r.key_id);
    if (!key) {
      key = {
        keyId: r.key_id,
        name: r.name,
        prefix: r.prefix,
        revoked: r.revoked_at !== null,
        dailyLimit: r.daily_limit,
        minuteLimit: r.minute_limit,
        days: dayList.map((day) => ({ day, requests: 0, rejected: 0 })),
      };
      byKey.set(r.key_id, key);
    }
    const slot = key.days.find((d) => d.day === r.day);
    if (slot) Object.assign(slot, { requests: r.requests ?? 0, rejected: r.rejected ?? 0 });
  }
  // A revoked key with no requests in the window has nothing to show.
  return [...byKey.values()].filter((k) => !k.revoked || k.days.some((d) => d.requests + d.rejected > 0));
}
