import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenKeys, tokenKey, unpackSet } from "./match-sets";
import { alertsDatabase, newAddress } from "./test/fixtures";

let t: Awaited<ReturnType<typeof alertsDatabase>>;
beforeAll(async () => {
  t = await alertsDatabase();
});
afterAll(async () => {
  await t?.close();
});

describe("packed match sets", () => {
  it("pack to the bytes PostgreSQL computes for each address (as migration 0024 did), and back", async () => {
    const addresses = [newAddress(), newAddress(), "0xAbC0000000000000000000000000000000000def"];
    const keys = new TokenKeys();
    const [{ packed, bySql }] = await t.sql<{ packed: Buffer; bySql: Buffer }[]>`
      select ${keys.pack(addresses)}::text::bytea as packed,
             (select string_agg(substring(sha256(convert_to(a, 'UTF8')) from 1 for 8), ''::bytea order by n)
                from unnest(${addresses}::text[]) with ordinality u(a, n)) as "bySql"`;
    expect(packed.equals(bySql)).toBe(true);
    expect(packed).toHaveLength(8 * addresses.length);
    expect(unpackSet(packed)).toEqual(new Set(addresses.map(tokenKey)));
    expect(unpackSet(Buffer.alloc(0))).toEqual(new Set());
  });
});
