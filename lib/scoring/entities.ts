/**
 * Who controls a wallet: wallets that one funder created and that act together on this token
 * are one entity with that funder (Arbitrum sybil work, Chainalysis "managed addresses"); any
 * other wallet is its own entity. Concentration, wash trading and sybil detection share this one rule.
 */
import type { ClusterFacts } from "./token-input";
import { CLUSTERS } from "./weights";

type Linked = { address: string; clusterId: string | null };

export type EntityResolver = {
  /** The entity id of a wallet: "cluster:<id>" for a managed cluster and its funder, else the address. */
  entityOf(address: string): string;
};

/**
 * Whether a funding cluster of `size` wallets, `onToken` of which touch the token, is managed (one
 * owner's): small enough not to be an exchange hub, at least two of its wallets on the token, and
 * they a large share of the whole cluster (a hub's unrelated customers are a tiny share of its wallets).
 */
export const isManagedCluster = (size: number, onToken: number) =>
  size <= CLUSTERS.maxManagedSize && onToken >= CLUSTERS.minWallets && onToken / size >= CLUSTERS.minCohesion;

/** The entities of the wallets involved with a token: a managed cluster's wallets are one (isManagedCluster). */
export function resolveEntities(involved: Linked[], clusters: ClusterFacts[]): EntityResolver {
  const sizes = new Map(clusters.map((c) => [c.id, c.size]));
  const walletsByCluster = new Map<string, Set<string>>();
  const clusterOf = new Map<string, string>();
  for (const { address, clusterId } of involved) {
    if (!clusterId) continue;
    clusterOf.set(address, clusterId);
    const set = walletsByCluster.get(clusterId) ?? new Set<string>();
    set.add(address);
    walletsByCluster.set(clusterId, set);
  }
  const managed = new Set<string>();
  for (const [id, wallets] of walletsByCluster) {
    if (isManagedCluster(Math.max(sizes.get(id) ?? wallets.size, wallets.size), wallets.size)) managed.add(id);
  }
  return {
    entityOf(address) {
      // A cluster's id is its funder's address: the funder owns what its wallets hold.
      if (managed.has(address)) return `cluster:${address}`;
      const id = clusterOf.get(address);
      return id && managed.has(id) ? `cluster:${id}` : address;
    },
  };
}

export const isClusterEntity = (entity: string) => entity.startsWith("cluster:");

export function groupBy<T>(items: T[], keyOf: (t: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** Groups items by the entity of their wallet. */
export const groupByEntity = <T>(items: T[], walletOf: (t: T) => string, resolver: EntityResolver) =>
  groupBy(items, (t) => resolver.entityOf(walletOf(t)));
