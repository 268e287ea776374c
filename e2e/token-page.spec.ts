import { formatPrice } from "@/components/charts/candles";
import { formatChangePct, formatUsd } from "@/components/format";
import type { Token } from "@/lib/queries/tokens";
import {
  callApi,
  createKey,
  expect,
  expectNoHorizontalOverflow,
  openAccountMenu,
  signIn,
  snap,
  test,
  tokenRows,
} from "./support/fixtures";

/**
 * The trader's token page and what leads to it (issue 48: the figures, the lists, the polish), on
 * a desktop and a 390 px phone: every figure is the API's, the trades list filters as the API
 * does, unknown addresses are 404s, and the header, the search, the gauge and the chart read right.
 */

type Page = import("@playwright/test").Page;

/** The busiest token of the fixture (most 24 h volume), as the list's JSON route has it. */
async function busiest(page: Page): Promise<Token> {
  const res = await page.request.get("/api/tokens?sort=volume&limit=1");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: Token[] }).data[0];
}

test("the token page shows the market figures, pools and trades the API has, titled by the token", async ({
  page,
  isMobile,
}) => {
  test.setTimeout(180_000);
  const token = await busiest(page);
  await page.goto(`/tokens/${token.address}`);
  await expect(page).toHaveTitle(`${token.symbol} ${formatPrice(token.price_usd)} · Onchain Intel`);

  const figures = page.locator("dl[aria-label='Market figures']");
  const stat = (label: string) =>
    figures.locator("div", { has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) });
  await expect(stat("Price now")).toContainText(formatPrice(token.price_usd));
  await expect(stat("Market cap")).toContainText(formatUsd(token.market_cap_usd));
  await expect(stat("FDV")).toContainText(formatUsd(token.fdv_usd));
  await expect(stat("Liquidity")).toContainText(formatUsd(token.liquidity_usd));
  await expect(stat("Volume 24h")).toContainText(formatUsd(token.volume_24h_usd));
  await expect(stat("Buys / sells 24h")).toContainText(`${token.txns_24h.buys} / ${token.txns_24h.sells}`);
  await expect(stat("Makers 24h")).toContainText(String(token.makers_24h));
  for (const [window, pct] of [
    ["5m", token.price_change_5m_pct],
    ["1h", token.price_change_1h_pct],
    ["24h", token.price_change_24h_pct],
  ] as const) {
    await expect(stat("Price change").locator(`[data-window="${window}"]`)).toContainText(formatChangePct(pct));
  }

  // Pools: each with its DEX, pair and fee tier, linked to its own events.
  const pools = page.getByRole("region", { name: "Pools" });
  const pool = pools.locator("tbody tr").first();
  await expect(pool).toContainText(`${token.symbol}/WETH`);
  await expect(pool).toContainText("0.3%");
  const poolAddress = await pool.getAttribute("data-pool");

  // Trades: the API's rows, filtered by side and by the trader's class.
  const trades = page.getByRole("region", { name: `Trades of ${token.symbol}` });
  const ids = () => trades.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id")));
  const api = async (query: string) =>
    (
      (await (
        await page.request.get(`/api/events?token_address=${token.address}&type=swap&limit=25${query}`)
      ).json()) as { data: { id: string }[] }
    ).data.map((e) => e.id);
  await expect.poll(ids).toEqual(await api(""));
  await expect(trades.locator("tbody tr").first()).toContainText("WETH");
  await snap(page, "token-page-figures");

  await page.getByLabel("Side").selectOption("sell");
  await expect.poll(ids).toEqual(await api("&direction=sell"));
  expect(
    await trades.locator("tbody tr").evaluateAll((rows) => rows.every((r) => r.getAttribute("data-side") === "sell")),
  ).toBe(true);
  const walletClass = (await trades.locator("tbody tr").first().getAttribute("data-class"))!;
  await page.getByLabel("Trader's class").selectOption(walletClass);
  await expect.poll(ids).toEqual(await api(`&direction=sell&wallet_classification=${walletClass}`));
  expect(
    await trades
      .locator("tbody tr")
      .evaluateAll((rows, c) => rows.every((r) => r.getAttribute("data-class") === c), walletClass),
  ).toBe(true);
  await trades.scrollIntoViewIfNeeded();
  await snap(page, "token-page-trades");

  // No large blank block under the chart: its card ends at the chart, and the pools follow.
  const chartCard = page.locator("section", { has: page.getByRole("img", { name: / candles from / }) });
  const chart = page.getByRole("img", { name: / candles from / });
  const [cardBox, chartBox] = [await chartCard.boundingBox(), await chart.boundingBox()];
  expect(cardBox!.y + cardBox!.height - (chartBox!.y + chartBox!.height)).toBeLessThan(48);

  // The gauge's needle never crosses its digits.
  const overlap = await page.getByRole("img", { name: /^Risk score/ }).evaluate((svg) => {
    const needle = (svg.querySelector("line") as SVGGraphicsElement).getBBox();
    const digits = (svg.querySelector("text") as SVGGraphicsElement).getBBox();
    return (
      needle.x < digits.x + digits.width &&
      digits.x < needle.x + needle.width &&
      needle.y < digits.y + digits.height &&
      digits.y < needle.y + needle.height
    );
  });
  expect(overlap).toBe(false);

  await pool.getByRole("link", { name: "Events →" }).click();
  await expect(page).toHaveURL(new RegExp(`/events\\?token_address=${token.address}&pool_address=${poolAddress}`));
  await expect(page.getByLabel("Pool address")).toHaveValue(poolAddress!);
  await expect(page.getByRole("region", { name: "Events" }).locator("tbody tr").first()).toBeVisible();
  if (isMobile) await expectNoHorizontalOverflow(page);
});

test("candles open at the previous close, in the API and on the chart", async ({ page }) => {
  const token = await busiest(page);
  const res = await page.request.get(`/api/tokens/${token.address}/ohlcv?interval=15m&limit=96`);
  const candles = ((await res.json()) as { data: { open: number; high: number; low: number; close: number }[] }).data;
  expect(candles.length).toBeGreaterThan(2);
  for (let i = 1; i < candles.length; i++) {
    expect(candles[i].open).toBe(candles[i - 1].close);
    expect(candles[i].high).toBeGreaterThanOrEqual(Math.max(candles[i].open, candles[i].close));
    expect(candles[i].low).toBeLessThanOrEqual(Math.min(candles[i].open, candles[i].close));
  }
  await page.goto(`/tokens/${token.address}`);
  // A candle whose price moved draws a body taller than a hairline.
  const bodies = await page
    .getByTestId("candle")
    .evaluateAll((gs) => gs.map((g) => Number(g.querySelector("rect")?.getAttribute("height") ?? 0)));
  const moved = candles.filter((c) => c.open !== c.close).length;
  expect(bodies.filter((h) => h > 1.5).length).toBeGreaterThanOrEqual(Math.min(moved, bodies.length) / 2);
  await snap(page, "token-page-candles", { fullPage: false });
});

test("unknown and malformed addresses answer 404 with the not-found page", async ({ page }) => {
  for (const path of [
    "/tokens/0xzz",
    `/tokens/0x${"5".repeat(40)}`,
    `/wallets/0x${"5".repeat(40)}`,
    "/wallets/nonsense",
  ]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not found");
    await expect(page).toHaveTitle("Not found · Onchain Intel");
  }
  const token = await busiest(page);
  expect((await page.goto(`/tokens/${token.address.toUpperCase().replace("0X", "0x")}`))?.status()).toBe(200);
  await page.goto(`/tokens/0x${"5".repeat(40)}`);
  await snap(page, "not-found", { fullPage: false });
});

test("the token list shows price, 24 h change, risk level and flags, on a phone too; filters pair min and max", async ({
  page,
  isMobile,
}) => {
  await page.goto("/tokens?sort=risk_desc");
  const flagged = (
    (await (await page.request.get("/api/tokens?sort=risk_desc&limit=50")).json()) as { data: Token[] }
  ).data.find((t) => t.risk_flags.length > 0)!;
  const row = page.locator(`[data-address="${flagged.address}"]:visible`);
  await expect(row).toBeVisible();
  await expect(row).toContainText(flagged.price_usd > 0 ? formatPrice(flagged.price_usd) : "—");
  await expect(row).toContainText(formatChangePct(flagged.price_change_24h_pct));
  await expect(row).toContainText(flagged.risk_flags[0].replaceAll("_", " "));
  if (isMobile) await expect(row).toContainText(/(low|medium|high|critical) risk/);
  // The whole card or row fits the screen: nothing to scroll to see the risk.
  const box = (await row.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  await expect(tokenRows(page)).toHaveCount(50);

  const labels = await page
    .locator("form[aria-label='Token filters'] input[type=number]")
    .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).labels?.[0]?.textContent ?? ""));
  expect(labels.slice(0, 2)).toEqual(["Minimum market cap in USD", "Maximum market cap in USD"]);
  const [min, max] = [
    await page.getByLabel("Minimum market cap in USD").boundingBox(),
    await page.getByLabel("Maximum market cap in USD").boundingBox(),
  ];
  expect(Math.abs(min!.y - max!.y)).toBeLessThan(2);
  await snap(page, "tokens-list-risk");
});

/**
 * Holds the root layout's script (the one with the header's search) until `act` is done, so the
 * page hydrates only after it and React finds what `act` entered in the page, not in an event.
 * Streamed content is still revealed. (Holding a page's own script instead is not the same: an
 * update reaching its dehydrated boundary meanwhile makes React render it anew on the client.)
 */
async function beforeHydration(page: Page, act: () => Promise<void>) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/_next/static/chunks/**", async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes("Symbol, name or 0x address")) await held;
    await route.fulfill({ response, body });
  });
  await act();
  release();
  // Later loads (the test's next pages) go straight to the server.
  await page.unrouteAll({ behavior: "wait" });
}

test("a sort chosen before the page's scripts have run is the sort applied", async ({ page }) => {
  await beforeHydration(page, async () => {
    await page.goto("/tokens", { waitUntil: "commit" });
    await page.getByLabel("Sort by").selectOption("volume");
  });
  await expect(page).toHaveURL(/\?sort=volume$/);
  await expect(page.getByLabel("Sort by")).toHaveValue("volume");
  await expect(page.getByText("Updating…")).toHaveCount(0);
  await expect(page.getByLabel("Sort by")).toHaveValue("volume");
});

test("flags ticked before the page's scripts have run are the flags excluded", async ({ page }) => {
  await beforeHydration(page, async () => {
    await page.goto("/tokens", { waitUntil: "commit" });
    await page.getByLabel("wash trading").check();
    await page.getByLabel("sybil cluster").check();
  });
  await expect(page).toHaveURL(/exclude_flags=wash_trading(,|%2C)sybil_cluster/);
  await expect(page.getByText("Updating…")).toHaveCount(0);
  await expect(page.getByLabel("wash trading")).toBeChecked();
  await expect(page.getByLabel("sybil cluster")).toBeChecked();
});

test("a search typed before the page's scripts have run is the search made", async ({ page }) => {
  const token = await busiest(page);
  const box = page.getByRole("combobox", { name: "Search tokens and wallets" });
  await beforeHydration(page, async () => {
    await page.goto("/events", { waitUntil: "commit" });
    await box.fill(token.address);
  });
  // Focused again once the page took input: the suggestions are the typed text's.
  await box.blur();
  await box.focus();
  await expect(
    page
      .getByRole("option")
      .filter({ hasText: formatPrice(token.price_usd) })
      .first(),
  ).toBeVisible();
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tokens/${token.address}$`));
});

test("the header's search suggests tokens and wallets as one types and keeps the query", async ({ page }) => {
  const token = await busiest(page);
  await page.goto("/events");
  const box = page.getByRole("combobox", { name: "Search tokens and wallets" });
  // Copycats share a name and a symbol: the price tells them apart, as it does for a trader.
  const isToken = (text: string) =>
    text.startsWith(`${token.name} ${token.symbol}`) && text.includes(formatPrice(token.price_usd));
  const option = page
    .getByRole("option")
    .filter({ hasText: `${token.name} ${token.symbol}` })
    .filter({ hasText: formatPrice(token.price_usd) });
  // Typed again should the first keys come before the page took input.
  await expect(async () => {
    await box.fill("");
    await box.pressSequentially(token.symbol.slice(0, 3).toLowerCase(), { delay: 30 });
    await expect(option).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await expect(option).toContainText("liquidity");
  await expect(option).toContainText(/risk/);
  await snap(page, "search-suggestions", { fullPage: false });
  const options = await page.getByRole("option").allInnerTexts();
  for (let i = 0; i <= options.findIndex(isToken); i++) await box.press("ArrowDown");
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tokens/${token.address}$`));

  // A wallet by the start of its address.
  const [event] = (
    (await (await page.request.get(`/api/events?type=swap&limit=1`)).json()) as { data: { wallet_address: string }[] }
  ).data;
  await box.fill("");
  await box.pressSequentially(event.wallet_address.slice(0, 12), { delay: 20 });
  await page
    .getByRole("option", { name: /^Wallet / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/wallets\/0x[0-9a-f]{40}$/);
  await expect(page).toHaveTitle(/^Wallet 0x[0-9a-f]{4}…[0-9a-f]{4} · .+ · Onchain Intel$/);

  // Enter alone opens the results, and the box keeps what was typed.
  await box.fill("zzzq");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=zzzq$/);
  await expect(page.getByRole("combobox", { name: "Search tokens and wallets" })).toHaveValue("zzzq");
  await page.goto(`/search?q=${token.symbol.slice(0, 2).toLowerCase()}`);
  const match = page.getByRole("list", { name: "Matches" }).locator(`[data-address="${token.address}"]`);
  await expect(match).toContainText(formatPrice(token.price_usd));
  await expect(match).toContainText(`${formatUsd(token.liquidity_usd)} liquidity`);
  await expect(match).toContainText(/(low|medium|high|critical) risk/);
  await snap(page, "search-results");
});

test("signed in, the header shows every link at 1280 px, and on a phone says that it scrolls", async ({
  page,
  email,
  isMobile,
}) => {
  await signIn(page, email, "/plan");
  await page.goto("/tokens");
  const nav = page.getByRole("navigation", { name: "Main" });
  const list = await nav.locator("ul").boundingBox();
  const links = nav.getByRole("link");
  await expect(links).toHaveCount(7);
  if (!isMobile) {
    for (const link of await links.all()) {
      const b = (await link.boundingBox())!;
      expect(b.x + b.width, await link.innerText()).toBeLessThanOrEqual(list!.x + list!.width + 0.5);
    }
  } else {
    await expect(page.getByTestId("nav-scroll-hint")).toBeVisible();
    await nav.getByRole("link", { name: "API reference" }).scrollIntoViewIfNeeded();
    await expect(page.getByTestId("nav-scroll-hint")).toHaveCount(0);
  }
  await openAccountMenu(page);
  await expect(page.getByRole("banner")).toContainText(email);
  await snap(page, "header-signed-in", { fullPage: false });
});

test("the docs page's /v1/search example runs as copied", async ({ page, email, baseURL }) => {
  await signIn(page, email, "/keys");
  const key = await createKey(page, "docs example");
  await page.goto("/docs");
  const section = page.locator("section", { has: page.locator("h3 code", { hasText: /^\/search$/ }) });
  // The visible line: while the page streams in, a hidden copy of it can stand outside the content.
  const curl = await section
    .locator("code", { hasText: /^curl / })
    .filter({ visible: true })
    .innerText();
  const url = new URL(/"(http[^"]+)"$/.exec(curl)![1]);
  expect(url.searchParams.get("q")).toBeTruthy();
  const res = await callApi(baseURL!, `${url.pathname}${url.search}`, key);
  expect(res.status).toBe(200);
  expect((res.body.data as unknown[]).length).toBeGreaterThan(0);
});
