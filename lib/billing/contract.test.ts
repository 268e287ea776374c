import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeKey } from "@/lib/keys/store";
import { contractOf, keysWithLimits, setContract, setKeyLimits } from "./contract";
import { changePlan } from "./plan-change";
import { type BillingTest, startBillingTest } from "./test/setup";

let t: BillingTest;
beforeAll(async () => {
  t = await startBillingTest("billing_contract_test");
});
afterAll(async () => {
  await t?.close();
});

async function apiTierAccount() {
  const account = await t.newAccount();
  await changePlan(t.db, account.id, "api_tier", t.now());
  return account;
}

describe("API Tier key limits within the contract", () => {
  it("are for API Tier keys only", async () => {
    const account = await t.newAccount();
    await expect(setKeyLimits(t.db, account.id, account.keyId, { ratePerMinute: 5 })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("default to the API Tier plan's limits as the ceiling", async () => {
    const account = await apiTierAccount();
    expect(await contractOf(t.db, account.id)).toEqual({
      maxRatePerMinute: 1000,
      maxRatePerDay: 1_000_000,
      custom: false,
    });
    expect(await setKeyLimits(t.db, account.id, account.keyId, { ratePerMinute: 500, ratePerDay: 20_000 })).toEqual({
      ratePerMinute: 500,
      ratePerDay: 20_000,
    });
    await expect(setKeyLimits(t.db, account.id, account.keyId, { ratePerMinute: 1001 })).rejects.toMatchObject({
      code: "INVALID_PARAMS",
      param: "rate_per_minute",
    });
    await expect(setKeyLimits(t.db, account.id, account.keyId, { ratePerDay: 1_000_001 })).rejects.toMatchObject({
      code: "INVALID_PARAMS",
      param: "rate_per_day",
    });
    // Absent keeps, null returns to the default.
    expect(await setKeyLimits(t.db, account.id, account.keyId, { ratePerMinute: null })).toEqual({
      ratePerMinute: null,
      ratePerDay: 20_000,
    });
  });

  it("a contract raises the ceiling; lowering it lowers keys above it; it never goes below the defaults", async () => {
    const account = await apiTierAccount();
    await expect(setContract(t.db, account.id, { ratePerMinute: 999, ratePerDay: 2_000_000 })).rejects.toMatchObject({
      code: "INVALID_PARAMS",
      param: "per_minute",
    });
    await setContract(t.db, account.id, { ratePerMinute: 5000, ratePerDay: 5_000_000 });
    await setKeyLimits(t.db, account.id, account.keyId, { ratePerMinute: 4000, ratePerDay: 3_000_000 });
    await setContract(t.db, account.id, { ratePerMinute: 2000, ratePerDay: 5_000_000 });
    expect(await contractOf(t.db, account.id)).toEqual({
      maxRatePerMinute: 2000,
      maxRatePerDay: 5_000_000,
      custom: true,
    });
    expect(await keysWithLimits(t.db, account.id)).toMatchObject([
      { id: account.keyId, ratePerMinute: 2000, ratePerDay: 3_000_000 },
    ]);
  });

  it("only for the account's own live keys", async () => {
    const account = await apiTierAccount();
    const other = await apiTierAccount();
    await expect(setKeyLimits(t.db, account.id, other.keyId, { ratePerMinute: 5 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await revokeKey(t.db, account.keyId);
    await expect(setKeyLimits(t.db, account.id, account.keyId, { ratePerMinute: 5 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
