import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { tokenSecurity } from "@/lib/api/schemas/security";
import { HONEYPOT_REPORT } from "@/tests/setup/security-reports";
import { api, expectError, expectShape, testDb } from "./helpers";
import { storeCheckedToken } from "./security-fixture";

let checked: Awaited<ReturnType<typeof storeCheckedToken>>;
let unchecked: string;

beforeAll(async () => {
  checked = await storeCheckedToken();
  [{ token: unchecked }] = await testDb().execute<{ token: string }>(sql`
    select address as token from tokens t
     where not exists (select 1 from token_security s where s.token_address = t.address) order by address limit 1`);
});

describe("GET /v1/tokens/{address}/security", () => {
  it("serves the stored checks, each with the block and time it ran at, and the profile carries the same", async () => {
    const res = await api(`/v1/tokens/${checked.token}/security`);
    expect(res.status).toBe(200);
    const body = expectShape(tokenSecurity, res.body);
    const when = { block: checked.block, checked_at: checked.checkedAt };
    expect(body.token_address).toBe(checked.token);
    expect(body.honeypot).toBe("yes");
    expect(body.trade).toEqual({ ...checked.report.trade, ...when });
    expect(body.owner).toEqual({ ...HONEYPOT_REPORT.owner, ...when });
    expect(body.code).toEqual({ ...HONEYPOT_REPORT.code, ...when });
    expect(body.liquidity).toEqual({ ...checked.report.liquidity, ...when });
    const profile = await api(`/v1/tokens/${checked.token}`);
    expect(profile.status).toBe(200);
    expect(profile.body.security).toEqual(body);
  });

  it("says every check is unknown, never safe, before the first run", async () => {
    const res = await api(`/v1/tokens/${unchecked}/security`);
    expect(res.status).toBe(200);
    const body = expectShape(tokenSecurity, res.body);
    expect(body.honeypot).toBe("unknown");
    for (const check of [body.trade, body.owner, body.code, body.liquidity]) {
      expect(check).toMatchObject({ status: "unknown", reason: "not checked yet" });
      expect(check.block).toBeUndefined();
    }
    expect(body.trade.buy_tax_pct).toBeUndefined();
  });

  it("answers 400 for a malformed address, 404 for an unindexed one, 401 without a key", async () => {
    expectError(await api("/v1/tokens/0x123/security"), 400, "INVALID_PARAMS", "address");
    expectError(await api(`/v1/tokens/0x${"5".repeat(40)}/security`), 404, "NOT_FOUND");
    expectError(await api(`/v1/tokens/${checked.token}/security`, { key: null }), 401, "UNAUTHORIZED");
  });
});
