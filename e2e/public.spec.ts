import { expect, snap, test, tokenRows } from "./support/fixtures";

/** A visitor who never signed in: market pages are public, account pages ask for sign-in. */

test("a signed-out visitor reads the market, tokens, a token, a wallet, events and docs", async ({
  page,
  isMobile,
}) => {
  test.setTimeout(180_000);
  await page.goto("/");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("scored for risk and reputation");
  await expect(page.getByRole("list", { name: "Trending tokens" }).getByRole("link").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  await snap(page, "public-home");

  await page.getByRole("link", { name: "Screen tokens" }).click();
  await expect(page).toHaveURL(/\/tokens$/);
  const rows = tokenRows(page);
  await expect(rows.first()).toBeVisible();
  // A sort is a request of the dashboard's market route, which needs no session either.
  await page.getByLabel("Sort by").selectOption("liquidity");
  await expect(page).toHaveURL(/sort=liquidity/);
  await expect(page.getByText("Updating…")).toHaveCount(0);
  await expect(page.locator("#content").getByRole("alert")).toHaveCount(0);
  await expect(page.getByTestId("risk-legend")).toContainText("75–100");
  await snap(page, "public-tokens");

  // A value the API would refuse is said so under its field and kept out of the URL.
  await page.getByLabel("Maximum risk score, 0 to 100").fill("150");
  await expect(page.getByText("Must be between 0 and 100.")).toBeVisible();
  await expect(page.getByLabel("Maximum risk score, 0 to 100")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Minimum liquidity in USD").fill("1000");
  await expect(page).toHaveURL(/min_liquidity_usd=1000/);
  expect(page.url()).not.toContain("max_risk_score");
  // A filter is an account's view: the page offers sign-in instead of rows (e2e/budget.spec.ts).
  await expect(page.getByTestId("sign-in-required")).toBeVisible();
  await page.getByLabel("Maximum risk score, 0 to 100").fill("");
  await page.getByLabel("Minimum liquidity in USD").fill("");
  await expect(rows.first()).toBeVisible();
  await page.getByLabel("Rows per page").selectOption("10");
  await expect(rows).toHaveCount(10);
  // A column header sorts by it: Age, youngest first. (A phone lists cards: the sort is the form's.)
  if (isMobile) await page.getByLabel("Sort by").selectOption("newest");
  else await page.getByRole("button", { name: /^Age/ }).click();
  await expect(page).toHaveURL(/sort=newest/);
  if (!isMobile)
    await expect(page.getByRole("columnheader", { name: /^Age/ })).toHaveAttribute("aria-sort", "ascending");

  await rows.first().locator("a").first().click();
  await expect(page).toHaveURL(/\/tokens\/0x[0-9a-f]{40}$/);
  await expect(page.getByRole("img", { name: /^Risk score/ })).toBeVisible();
  const token = new URL(page.url()).pathname.split("/").at(-1)!;
  await snap(page, "public-token");

  await page.getByRole("region", { name: "Top holders" }).locator("tbody a").first().click();
  await expect(page).toHaveURL(/\/wallets\/0x[0-9a-f]{40}$/);
  await expect(page.getByText("Reputation breakdown")).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Positions \(\d+\)$/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Wallet events" }).locator("tbody tr").first()).toBeVisible();
  await snap(page, "public-wallet");

  // The header's search goes straight to the page of a whole address, a wallet's or a token's.
  const wallet = new URL(page.url()).pathname.split("/").at(-1)!;
  const search = page.getByRole("combobox", { name: "Search tokens and wallets" });
  await search.fill(token.toUpperCase().replace("0X", "0x"));
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tokens/${token}$`));
  await page.getByRole("combobox", { name: "Search tokens and wallets" }).fill(wallet);
  await page.getByRole("combobox", { name: "Search tokens and wallets" }).press("Enter");
  await expect(page).toHaveURL(new RegExp(`/wallets/${wallet}$`));

  await page.goto("/events");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Events");
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await snap(page, "public-events");

  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");
  await snap(page, "public-docs", { fullPage: false });
});

for (const path of ["/alerts", "/keys", "/plan"]) {
  test(`${path} asks a signed-out visitor to sign in, and comes back after`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/signin\\?callbackUrl=${encodeURIComponent(path)}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  });
}
