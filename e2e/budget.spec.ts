import { content, expect, signIn, snap, test, tokenRows } from "./support/fixtures";

/**
 * Browsing within limits: what everyone sees (the shared views) is never counted, so a visitor
 * without an account can change sorts and timeframes as often as they like; a view past a budget
 * keeps what it showed and says when it refreshes, never "No swaps yet" or an empty table.
 */

test("a visitor without an account changes sorts and timeframes many times and keeps seeing data", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/tokens");
  const rows = tokenRows(page);
  await expect(rows.first()).toBeVisible();
  const sorts = await page
    .getByLabel("Sort by")
    .locator("option")
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  // More changes than the 10 a minute an address may make of what is not shared.
  const picked = sorts.filter((s) => s !== "trending").slice(0, 15);
  expect(picked).toHaveLength(15);
  for (const sort of picked) {
    await page.getByLabel("Sort by").selectOption(sort);
    await expect(page).toHaveURL(new RegExp(`[?&]sort=${sort}(&|$)`));
    await expect(page.getByText("Updating…")).toHaveCount(0);
    await expect(rows.first()).toBeVisible();
    await expect(page.getByTestId("rate-limited")).toHaveCount(0);
    await expect(page.locator("#content").getByRole("alert")).toHaveCount(0);
  }
  await snap(page, "sorts-after-many-changes");

  // The busiest token's chart, through every timeframe twice.
  await page.getByLabel("Sort by").selectOption("volume");
  await expect(page.getByText("Updating…")).toHaveCount(0);
  await rows.first().locator("a").first().click();
  await expect(page).toHaveURL(/\/tokens\/0x[0-9a-f]{40}$/);
  const candles = page.getByTestId("candle");
  await expect(candles.first()).toBeVisible();
  const timeframes = page.getByRole("group", { name: "Timeframe" }).getByRole("button");
  const labels = await timeframes.allInnerTexts();
  for (const label of [...labels, ...labels]) {
    await page.getByRole("button", { name: label, exact: true }).click();
    await expect(page.getByRole("button", { name: label, exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByText("Updating…")).toHaveCount(0);
    await expect(candles.first()).toBeVisible();
    await expect(page.getByText("No swaps yet.")).toHaveCount(0);
    await expect(page.getByTestId("rate-limited")).toHaveCount(0);
  }
});

test("a filter asks a visitor without an account to sign in, and shows no rows of another view", async ({ page }) => {
  await page.goto("/tokens?sort=liquidity");
  const rows = tokenRows(page);
  await expect(rows.first()).toBeVisible();
  await page.getByLabel("Minimum liquidity in USD").fill("1000");
  await expect(page).toHaveURL(/min_liquidity_usd=1000/);
  const prompt = page.getByTestId("sign-in-required");
  await expect(prompt).toContainText("needs an account");
  await expect(prompt.getByRole("link", { name: "Sign in to see it" })).toHaveAttribute(
    "href",
    `/signin?callbackUrl=${encodeURIComponent("/tokens?sort=liquidity&min_liquidity_usd=1000")}`,
  );
  await expect(rows).toHaveCount(0);
  await expect(page.getByText("No token matches these filters.")).toHaveCount(0);
  await snap(page, "filter-needs-account");
  // The same page opened from its link says so from the server.
  await page.reload();
  await expect(content(page).getByTestId("sign-in-required")).toContainText("needs an account");
  await expect(rows).toHaveCount(0);
});

test("past its plan's limit a signed-in user keeps the rows and candles shown, with when they refresh", async ({
  page,
  email,
}) => {
  test.setTimeout(180_000);
  await signIn(page, email, "/tokens");
  await page.getByLabel("Sort by").selectOption("volume");
  await expect(page.getByText("Updating…")).toHaveCount(0);
  const rows = tokenRows(page);
  await expect(rows.first()).toBeVisible();

  // The Free plan's 10 requests a minute, spent on views that are not shared, until one is refused.
  const metered = (page: number) => `/api/tokens?sort=volume&page=${page}`;
  const spendTheMinute = async () => {
    for (let i = 0; i <= 10; i++) {
      const res = await page.request.get(metered(i + 2));
      if (res.status() === 429) return expect(Number(res.headers()["retry-after"])).toBeGreaterThan(0);
      expect(res.status()).toBe(200);
    }
    throw new Error("11 requests in a row were not refused");
  };
  await spendTheMinute();

  // A filter now: the table keeps its rows, dimmed, and says when it refreshes. The rows are read
  // just before it: the dev chain trades on, and a live update may reorder the list meanwhile.
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-address")));
  expect(shown.length).toBeGreaterThan(0);
  await page.getByLabel("Minimum liquidity in USD").fill("1");
  await expect(page).toHaveURL(/min_liquidity_usd=1/);
  const note = page.getByTestId("rate-limited");
  await expect(note).toHaveText(/^Rate limit reached: showing what was loaded before\. Refreshes in \d+ (s|min)\.$/);
  await expect(rows).toHaveCount(shown.length);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-address")))).toEqual(shown);
  await expect(page.getByText("No token matches these filters.")).toHaveCount(0);
  await snap(page, "explorer-rate-limited");

  // The chart: its timeframes are shared views, which no limit refuses, so this test answers the
  // chart's next request with the server's own 429 of a metered view, as a chart past a budget would get it.
  await page.goto("/tokens?sort=volume");
  await rows.first().locator("a").first().click();
  await expect(page).toHaveURL(/\/tokens\/0x[0-9a-f]{40}$/);
  const candles = page.getByTestId("candle");
  await expect(candles.first()).toBeVisible();
  const times = () => candles.evaluateAll((gs) => gs.map((g) => g.getAttribute("data-time")));
  const quarterHours = await times();
  await spendTheMinute();
  await page.route(
    (url) => url.pathname.endsWith("/ohlcv") && url.searchParams.get("interval") === "1h",
    async (route) =>
      route.fulfill({ response: await route.fetch({ url: new URL(metered(99), page.url()).toString() }) }),
  );
  await page.getByRole("button", { name: "1h", exact: true }).click();
  await expect(page.getByRole("button", { name: "1h", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(note).toHaveText(/^Rate limit reached: showing what was loaded before\. Refreshes in \d+ (s|min)\.$/);
  expect(await times()).toEqual(quarterHours);
  await expect(page.getByText("No swaps yet.")).toHaveCount(0);
  await snap(page, "chart-rate-limited");
});
