import { baseProfile } from "./base";
import { devchainProfile, readDeployment } from "./devchain";
import type { ChainProfile } from "./types";

export type { ChainProfile } from "./types";

/** Resolves CHAIN_PROFILE: `devchain` reads the deployment file under dataDir, `base` is static. */
export function loadProfile(name: string, dataDir?: string): ChainProfile {
  switch (name) {
    case "devchain":
      return devchainProfile(readDeployment(dataDir));
    case "base":
      return baseProfile;
    default:
      throw new Error(`Unknown CHAIN_PROFILE "${name}" (known: devchain, base)`);
  }
}
