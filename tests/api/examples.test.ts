import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { api, baseUrl, sharedKey } from "./helpers";

const run = promisify(execFile);
const FLAGS = "wash_trading,liquidity_pulled,concentrated_ownership,sybil_cluster,smart_money_exiting";

describe("examples/find-new-tokens.ts", () => {
  it("prints the last hour's tokens with over $10k of liquidity and no flag, as the API lists them", async () => {
    const env = { ...process.env, ONCHAIN_INTEL_API_KEY: await sharedKey() };
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "examples/find-new-tokens.ts", `${baseUrl()}/v1`],
      { env },
    );
    const expected = await api(
      `/v1/tokens?max_age_hours=1&min_liquidity_usd=10000&exclude_flags=${FLAGS}&sort=newest&limit=200`,
    );
    const printed = [...stdout.matchAll(/ (0x[0-9a-f]{40}) /g)].map((m) => m[1]);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed).toEqual(expected.body.data.map((t: { address: string }) => t.address));
    expect(stdout).toContain(`${expected.body.total} token(s) launched in the last hour`);
    for (const t of expected.body.data) expect(t.risk_flags).toEqual([]);
  });
});
