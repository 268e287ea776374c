import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { aliasColumns } from "@/db/bulk";
import type { Db } from "@/db/client";
import { alerts, apiKeys, notifications } from "@/db/schema";
import { NotFound } from "@/lib/domain/errors";
import { type AlertOwner, toAlert, toDelivery } from "./alerts";
import { iso } from "./format";

/**
 * The dashboard sees an account's alerts across all its keys (the API sees one key's). Every
 * change still goes through lib/queries/alerts with the alert's own key as owner, so the plan
 * gates are the API's.
 */
const RECENT_DELIVERIES = 3;
const newer = aliasColumns(notifications, "newer");

export async function listAccountAlerts(db: Db, accountId: string) {
  const rows = await db
    .select({ alert: alerts, keyName: apiKeys.name, keyPrefix: apiKeys.prefix, keyRevokedAt: apiKeys.revokedAt })
    .from(alerts)
    .innerJoin(apiKeys, eq(apiKeys.id, alerts.keyId))
    .where(eq(alerts.accountId, accountId))
    .orderBy(desc(alerts.createdAt), desc(alerts.id));
  const ids = rows.map((r) => r.alert.id);
  // The latest few of each alert: those with fewer than RECENT_DELIVERIES newer siblings.
  const recent = ids.length
    ? await db
        .select()
        .from(notifications)
        .where(
          and(
            inArray(notifications.alertId, ids),
            sql`(select count(*) from ${notifications} newer
                  where ${newer.alertId} = ${notifications.alertId}
                    and ${newer.id} > ${notifications.id}) < ${RECENT_DELIVERIES}`,
          ),
        )
        .orderBy(desc(notifications.id))
    : [];
  return rows.map((r) => ({
    ...toAlert(r.alert),
    key: {
      id: r.alert.keyId,
      name: r.keyName,
      prefix: r.keyPrefix,
      revoked_at: r.keyRevokedAt ? iso(r.keyRevokedAt) : null,
    },
    deliveries: recent.filter((n) => n.alertId === r.alert.id).map(toDelivery),
  }));
}
export type AccountAlert = Awaited<ReturnType<typeof listAccountAlerts>>[number];

/** The owner to act as for one of the account's alerts; another account's alert is not found. */
export async function alertOwnerInAccount(db: Db, accountId: string, alertId: string): Promise<AlertOwner> {
  const [row] = await db
    .select({ keyId: alerts.keyId })
    .from(alerts)
    .where(and(eq(alerts.id, alertId), eq(alerts.accountId, accountId)));
  if (!row) throw new NotFound("Alert not found.");
  return { keyId: row.keyId, accountId };
}

export async function countActiveAlerts(db: Db, accountId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(alerts)
    .where(and(eq(alerts.accountId, accountId), eq(alerts.status, "active")));
  return n;
}
