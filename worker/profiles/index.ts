import { launchEvents } from "../indexer/launch-event";
import { baseProfile } from "./base";
import { devchainProfile, readDeployment } from "./devchain";
import type { ChainProfile } from "./types";

export type { ChainProfile, Factory, Launchpad, NamedContract, ProtocolKind, QuoteToken } from "./types";

/** Resolves CHAIN_PROFILE: `devchain` reads the deployment file under dataDir, `base` is static. */
export function loadProfile(name: string, dataDir?: string): ChainProfile {
  switch (name) {
    case "devchain":
      return checkProfile(devchainProfile(readDeployment(dataDir)));
    case "base":
      return checkProfile(baseProfile);
    default:
      throw new Error(`Unknown CHAIN_PROFILE "${name}" (known: devchain, base)`);
  }
}

const ADDRESS = /^0x[0-9a-f]{40}$/;

/** A profile the indexer can run on, or an error that says what is wrong with it. */
export function checkProfile(p: ChainProfile): ChainProfile {
  const problem = (what: string) => new Error(`chain profile ${p.name}: ${what}`);
  const addresses = [
    p.weth,
    ...p.quoteTokens.map((q) => q.address),
    ...[...p.factories, ...p.positionManagers, ...p.launchpads, ...p.lockers].map((c) => c.address),
    ...p.otherContracts,
  ];
  const bad = addresses.find((a) => !ADDRESS.test(a));
  if (bad !== undefined) throw problem(`"${bad}" is not a lowercase 0x address`);
  const weth = p.quoteTokens.find((q) => q.address === p.weth);
  if (!weth || weth.stable) throw problem("weth must be one of quoteTokens, not stable");
  if (!p.quoteTokens.some((q) => q.stable)) throw problem("quoteTokens need a stablecoin to price WETH");
  for (const q of p.quoteTokens)
    if (!Number.isInteger(q.decimals) || q.decimals < 0 || q.decimals > 77)
      throw problem(`${q.symbol} has decimals ${q.decimals}`);
  if (p.launchpads.length === 0 && !p.poolTokens)
    throw problem("no launchpads and poolTokens off: no token would ever be indexed");
  launchEvents(p);
  return p;
}
