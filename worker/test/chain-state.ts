import { expect } from "vitest";
import type { Sql } from "@/db/client";
import type { DevchainMarket } from "./devchain-market";
import type { V3Market } from "./v3-market";

const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * The indexed state equals the chain's own at the indexed block: balanceOf of every address that
 * ever moved an indexed token or LP token, getReserves of every V2 pair, totalSupply of every token.
 */
export async function expectIndexedEqualsChain(sql: Sql, market: DevchainMarket) {
  const [{ block }] = await sql<{ block: string }[]>`select indexed_block::text as block from sync_state`;
  const at = Number(block);
  const holders = await sql<{ token: string; holder: string; amount: string | null }[]>`
    select k.token, k.holder, b.amount::text from (
      select token_address as token, from_address as holder from token_transfers
      union select token_address, to_address from token_transfers) k
    left join balances b on b.token_address = k.token and b.holder = k.holder
    where k.holder <> ${ZERO}`;
  expect(holders.length).toBeGreaterThan(10);
  const onChain = await Promise.all(holders.map((h) => market.balanceOf(h.token, h.holder, at)));
  expect(holders.map((h) => `${h.token}:${h.holder}:${h.amount ?? "0"}`)).toEqual(
    holders.map((h, i) => `${h.token}:${h.holder}:${onChain[i]}`),
  );

  const pools = await sql<
    { address: string; reserve0: string; reserve1: string }[]
  >`select address, reserve0::text, reserve1::text from pools where protocol = 'uniswap-v2'`;
  const reserves = await Promise.all(pools.map((p) => market.reserves(p.address, at)));
  expect(pools.map((p) => [p.address, p.reserve0, p.reserve1])).toEqual(
    pools.map((p, i) => [p.address, String(reserves[i][0]), String(reserves[i][1])]),
  );

  const tokens = await sql<{ address: string; total_supply: string }[]>`select address, total_supply::text from tokens`;
  const supplies = await Promise.all(tokens.map((t) => market.totalSupply(t.address, at)));
  expect(tokens.map((t) => [t.address, t.total_supply])).toEqual(
    tokens.map((t, i) => [t.address, String(supplies[i])]),
  );
  return { holders: holders.length, pools: pools.length, tokens: tokens.length };
}

/**
 * The indexed V3 state equals the chain's at the indexed block: each V3 pool's slot0 price and
 * tick, active liquidity and token balances; each position's owner, ticks and liquidity.
 */
export async function expectV3EqualsChain(sql: Sql, market: V3Market) {
  const [{ block }] = await sql<{ block: string }[]>`select indexed_block::text as block from sync_state`;
  const at = Number(block);
  const pools = await sql<
    { address: string; reserve0: string; reserve1: string; sqrt: string; tick: number; liquidity: string }[]
  >`
    select address, reserve0::text, reserve1::text, sqrt_price_x96::text as sqrt, tick,
           liquidity::text from pools where protocol = 'uniswap-v3' order by address`;
  expect(pools.length).toBeGreaterThan(0);
  const onChain = await Promise.all(pools.map((p) => market.poolState(p.address, at)));
  const pool = (p: {
    reserve0: unknown;
    reserve1: unknown;
    sqrtPriceX96: unknown;
    tick: unknown;
    liquidity: unknown;
  }) => [p.reserve0, p.reserve1, p.sqrtPriceX96, p.tick, p.liquidity].map(String).join(" ");
  expect(pools.map((p) => `${p.address} ${pool({ ...p, sqrtPriceX96: p.sqrt })}`)).toEqual(
    pools.map((p, i) => `${p.address} ${pool(onChain[i])}`),
  );

  const positions = await sql<{ id: string; owner: string; liquidity: string; lower: number; upper: number }[]>`
    select token_id::text as id, owner, liquidity::text, tick_lower as lower, tick_upper as upper from lp_positions
      order by token_id`;
  const minted = await Promise.all(positions.map((p) => market.position(BigInt(p.id), at)));
  const row = (p: { owner: string; liquidity: unknown; lower: unknown; upper: unknown }) =>
    [p.owner, p.liquidity, p.lower, p.upper].map(String).join(" ");
  expect(positions.map((p) => `${p.id} ${row(p)}`)).toEqual(
    positions.map((p, i) => `${p.id} ${row({ ...minted[i], lower: minted[i].tickLower, upper: minted[i].tickUpper })}`),
  );
  return { pools: pools.length, positions: positions.length };
}
