import { sql } from "drizzle-orm";
import { aliasColumns } from "@/db/bulk";
import type { Db } from "@/db/client";
import { alerts, notifications } from "@/db/schema";
import { shownWebhookUrl } from "./alerts";

export type FailingWebhookTarget = {
  url: string;
  /** The account's alerts that deliver to it. */
  alerts: number;
  /** Its notifications not delivered: waiting for a retry, put off, or failed for good. */
  undelivered: number;
  /** Why its latest attempt failed, in the words a delivery shows. */
  lastError: string;
};

const n = aliasColumns(notifications, "n");
const a = aliasColumns(alerts, "a");

/**
 * The account's webhook targets whose latest delivery attempt failed (the outbox's own record:
 * what every sender process saw, whichever learnt that a target keeps failing), worst first.
 */
export async function failingWebhookTargets(db: Db, accountId: string): Promise<FailingWebhookTarget[]> {
  const rows = await db.execute<FailingWebhookTarget>(sql`
    with tried as (
      select ${n.id}, ${n.alertId}, ${n.recipient}, ${n.status}, ${n.lastError}
        from ${notifications} n join ${alerts} a on ${a.id} = ${n.alertId}
       where ${a.accountId} = ${accountId} and ${n.channel} = 'webhook' and ${n.attempts} > 0
    ), latest as (
      select distinct on (recipient) recipient, status, last_error from tried order by recipient, id desc
    )
    select l.recipient as url, l.last_error as "lastError",
           count(distinct t.alert_id)::int as alerts,
           (count(*) filter (where t.status <> 'sent'))::int as undelivered
      from latest l join tried t on t.recipient = l.recipient
     where l.status <> 'sent' and l.last_error is not null
     group by l.recipient, l.last_error
     order by undelivered desc, l.recipient`);
  return rows.map((r) => ({ ...r, url: shownWebhookUrl(r.url) }));
}
