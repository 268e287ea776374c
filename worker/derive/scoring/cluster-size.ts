import { names, tableName } from "@/db/bulk";
import { wallets } from "@/db/schema";
import { CLUSTERS } from "@/lib/scoring";

const wl = names(wallets);

/**
 * The size of the funding cluster `clusterId` (an SQL expression), counted up to one past the
 * largest a managed cluster may have: every rule reads a size only against that bound
 * (isManagedCluster), and a hub's thousands of wallets, counted whole for each of its wallets,
 * made the scoring quadratic in a hub's size (4.9 s a slice of 1,000 hub wallets at 25,000
 * tokens, 11 ms so).
 */
export const clusterSizeSql = (clusterId: string) =>
  `(select count(*)::int from (select 1 from ${tableName(wallets)} k where k.${wl.clusterId} = ${clusterId}
     limit ${CLUSTERS.maxManagedSize + 1}) k)`;
