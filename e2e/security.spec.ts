import postgres from "postgres";
import type { SecurityReport } from "@/lib/domain/security";
import { HONEYPOT_REPORT, PLAIN_REPORT, storeSecurity } from "@/tests/setup/security-reports";
import { expect, snap, test } from "./support/fixtures";

/**
 * The security panel on the token page, in words, on a desktop and a 390 px phone: a honeypot
 * (sells revert, owner can mint and change fees, LP part locked) and a plain launch (sells go
 * through, no owner, LP burnt), as the worker stores their checks (tests/setup/security-reports.ts),
 * and a token not checked yet, which never reads as safe.
 */

/** Two tokens of the fixture other specs do not open (the highest addresses with a pool), and one more unchecked. */
async function stored(reports: SecurityReport[]) {
  const sql = postgres(process.env.E2E_DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    const tokens = await sql<{ address: string }[]>`
      select address from tokens t
       where exists (select 1 from pools p where p.token0 = t.address or p.token1 = t.address)
       order by address desc limit ${reports.length + 1}`;
    for (const [i, report] of reports.entries()) await storeSecurity(sql, tokens[i].address, report);
    return tokens.map((t) => t.address);
  } finally {
    await sql.end();
  }
}

test("the token page says whether the token can be sold, what its owner can do and who holds its LP", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const [honeypot, plain, unchecked] = await stored([HONEYPOT_REPORT, PLAIN_REPORT]);
  // In the page's content: while a page streams in, its next content waits in a hidden node outside it.
  const panel = page.locator("#content").getByTestId("security-panel");

  // The pages read through the cache every visitor shares: the stored checks show once it reloads.
  await expect(async () => {
    await page.goto(`/tokens/${honeypot}`);
    await expect(panel).toContainText("You cannot sell: sells revert", { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "Can it be sold?" })).toBeVisible();
  for (const line of [
    "Buy tax 0%",
    "Owner can mint",
    "Owner can change fees",
    "LP: 80% locked for good in BaseBlast Locker, 20% free to pull",
  ])
    await expect(panel).toContainText(line);
  await expect(panel.locator("li[data-tone='bad']", { hasText: "You cannot sell" })).toBeVisible();
  await expect(panel).toContainText(/Checked at block [\d,]+, \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await panel.scrollIntoViewIfNeeded();
  await snap(page, "security-honeypot", { fullPage: false });

  await expect(async () => {
    await page.goto(`/tokens/${plain}`);
    await expect(panel).toContainText("A small buy and its sell go through", { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  for (const line of [
    "Buy tax 0%",
    "Sell tax 0%",
    "No owner function",
    "No mint, pause, blacklist or fee function",
    "LP: 100% burnt",
  ])
    await expect(panel).toContainText(line);
  await expect(panel.locator("li[data-tone='bad']")).toHaveCount(0);
  await panel.scrollIntoViewIfNeeded();
  await snap(page, "security-plain", { fullPage: false });

  await page.goto(`/tokens/${unchecked}`);
  await expect(panel).toContainText("Can it be sold? Unknown: not checked yet");
  await expect(panel).toContainText("Not checked yet");
  await expect(panel.locator("li[data-tone='good']")).toHaveCount(0);
});
