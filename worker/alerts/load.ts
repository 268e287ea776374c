import { names, tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { alerts, apiKeys } from "@/db/schema";
import type { AlertConditions } from "@/lib/domain/alert-conditions";
import type { AlertKind } from "@/lib/domain/vocab";

/**
 * The live-alert rule, on the alert aliased `alert` and an api_keys row `k`: an alert is
 * evaluated and fired while it is active and its key is neither revoked nor moved to another
 * account; other alerts hold no matches (see recordMatches). Written as a join condition so that
 * scans over every alert stay hash joins rather than a subquery per alert.
 */
export const liveKey = (alert: string) => {
  const [a, k] = [names(alerts), names(apiKeys)];
  return `k.${k.id} = ${alert}.${a.keyId} and k.${k.accountId} = ${alert}.${a.accountId} and k.${k.revokedAt} is null`;
};

const al = names(alerts);

export type AlertState = {
  id: string;
  kind: AlertKind;
  conditions: AlertConditions;
  matchDigest: string | null;
  live: boolean;
};

/** The live alerts, and the others that still hold matches (to be cleared). */
export async function loadAlerts(sql: Sql): Promise<AlertState[]> {
  return sql.unsafe<AlertState[]>(
    `select a.${al.id} as id, a.${al.kind} as kind, a.${al.conditions} as conditions,
            a.${al.matchDigest} as "matchDigest",
            coalesce(a.${al.status} = 'active' and k.${names(apiKeys).id} is not null, false) as live
       from ${tableName(alerts)} a left join ${tableName(apiKeys)} k on ${liveKey("a")}
      where (a.${al.status} = 'active' and k.${names(apiKeys).id} is not null) or a.${al.matchDigest} is not null`,
  );
}
