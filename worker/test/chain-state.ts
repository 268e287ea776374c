import { expect } from "vitest";
import type { Sql } from "@/db/client";
import type { DevchainMarket } from "./devchain-market";

const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * The indexed state equals the chain's own at the indexed block: balanceOf of every address that
 * ever moved an indexed token or LP token, getReserves of every pair, totalSupply of every token.
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
  expect(holders.map((h) => `${h.token}:${h.holder}:${h.amount ?? "0"}`)).toEqual(holders.map((h, i) => `${h.token}:${h.holder}:${onChain[i]}`));

  const pools = await sql<{ address: string; reserve0: string; reserve1: string }[]>`select address, reserve0::text, reserve1::text from pools`;
  const reserves = await Promise.all(pools.map((p) => market.reserves(p.address, at)));
  expect(pools.map((p) => [p.address, p.reserve0, p.reserve1])).toEqual(pools.map((p, i) => [p.address, String(reserves[i][0]), String(reserves[i][1])]));

  const tokens = await sql<{ address: string; total_supply: string }[]>`select address, total_supply::text from tokens`;
  const supplies = await Promise.all(tokens.map((t) => market.totalSupply(t.address, at)));
  expect(tokens.map((t) => [t.address, t.total_supply])).toEqual(tokens.map((t, i) => [t.address, String(supplies[i])]));
  return { holders: holders.length, pools: pools.length, tokens: tokens.length };
}
