import { expect, expectNoHorizontalOverflow, snap, test, tokenRows } from "./support/fixtures";

/** The token page's candlestick chart on a fixture token, signed out: candles, timeframes, crosshair. */

const readable = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

test("the token page draws candles, switches timeframe and reads a candle under the pointer", async ({
  page,
  isMobile,
}) => {
  // The busiest token of the fixture: 24 h volume first.
  await page.goto("/tokens?sort=volume");
  await tokenRows(page).first().locator("a").first().click();
  await expect(page).toHaveURL(/\/tokens\/0x[0-9a-f]{40}$/);
  const address = new URL(page.url()).pathname.split("/").at(-1)!;

  const candles = page.getByTestId("candle");
  await expect(candles.first()).toBeVisible();
  await expect(page.getByRole("button", { name: "15m", exact: true })).toHaveAttribute("aria-pressed", "true");
  const times = () => candles.evaluateAll((gs) => gs.map((g) => g.getAttribute("data-time")!));
  const quarterHours = await times();
  expect(quarterHours.length).toBeGreaterThan(1);
  // The price axis never goes below zero.
  for (const tick of await page.getByTestId("price-tick").allTextContents()) expect(tick).toMatch(/^\$/);

  // Another timeframe asks the chart's route for that interval and draws its candles.
  const asked = page.waitForRequest(
    (r) => r.url().includes(`/api/tokens/${address}/ohlcv?`) && new URL(r.url()).searchParams.get("interval") === "1h",
  );
  await page.getByRole("button", { name: "1h", exact: true }).click();
  await asked;
  await expect(page.getByRole("button", { name: "1h", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect.poll(times).not.toEqual(quarterHours);
  const hours = await times();
  expect(hours.every((t) => t.slice(14, 19) === "00:00")).toBe(true);

  // The crosshair: a candle in the middle, by mouse or by finger, shows its time, O/H/L/C and volume.
  // Forced: the pointer goes to the candle's centre, which may fall between its wick and its
  // volume bar (the chart reads the position, not the element under it).
  const target = candles.nth(Math.floor(hours.length / 2));
  if (isMobile) await target.tap({ force: true });
  else await target.hover({ force: true });
  await expect(page.getByTestId("crosshair")).toBeVisible();
  const readout = page.getByTestId("candle-readout");
  await expect(readout).toContainText(readable(hours[Math.floor(hours.length / 2)]));
  for (const label of ["O $", "H $", "L $", "C $", "Vol $"]) await expect(readout).toContainText(label);

  await expectNoHorizontalOverflow(page);
  await snap(page, "token-chart");
});
