/**
 * All of one token's security checks at one block. Each check runs on its own: one that throws
 * (the node timed out, answered an error) is unknown with that reason, and the others stand.
 */
import type { Hex } from "viem";
import type { SecurityReport } from "@/lib/domain/security";
import type { ChainProfile } from "@/worker/profiles";
import type { ChainAt } from "./chain";
import { checkCode, checkOwner } from "./contract";
import { checkLiquidity, type PoolPosition } from "./lp";
import { checkTrade } from "./trade";

/** A token's main pool, where its trade and liquidity are checked; null fields without one. */
export type MainPool = { pool: string | null; protocol: string | null; quote: string | null };

const NODE_FAILED = "the chain node did not answer";
const NO_POOL = "the token has no pool against a quote token";

async function settled<T extends { status: string }>(run: () => Promise<T>, failed: T): Promise<T> {
  try {
    return await run();
  } catch {
    return failed;
  }
}

export async function checkToken(
  chain: ChainAt,
  token: string,
  main: MainPool,
  ctx: { profile: ChainProfile; positions: PoolPosition[]; balanceKey: Hex | null },
): Promise<SecurityReport> {
  const { pool, protocol, quote } = main;
  const quoteToken = ctx.profile.quoteTokens.find((q) => q.address.toLowerCase() === quote);
  const [trade, owner, code, liquidity] = await Promise.all([
    pool && protocol && quoteToken
      ? ctx.balanceKey
        ? settled(
            () =>
              checkTrade(
                chain,
                token,
                {
                  address: pool,
                  protocol,
                  quote: quoteToken.address.toLowerCase(),
                  quoteDecimals: quoteToken.decimals,
                },
                ctx.balanceKey!,
              ),
            { status: "unknown", reason: NODE_FAILED, pool, honeypot: "unknown" },
          )
        : Promise.resolve({
            status: "unknown" as const,
            reason: "the quote token's balances could not be simulated",
            pool,
            honeypot: "unknown" as const,
          })
      : Promise.resolve({ status: "unknown" as const, reason: NO_POOL, honeypot: "unknown" as const }),
    settled(() => checkOwner(chain, token), { status: "unknown", reason: NODE_FAILED }),
    settled(() => checkCode(chain, token), { status: "unknown", reason: NODE_FAILED }),
    pool && protocol
      ? settled(() => checkLiquidity(chain, { address: pool, protocol }, ctx.profile.lockers, ctx.positions), {
          status: "unknown",
          reason: NODE_FAILED,
          pool,
        })
      : Promise.resolve({ status: "unknown" as const, reason: NO_POOL }),
  ]);
  return { trade, owner, code, liquidity };
}
