import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import type { Token } from "@/lib/queries/tokens";
import {
  callApi,
  content,
  createKey,
  expect,
  openAccountMenu,
  signIn,
  snap,
  test,
  tokenRows,
} from "./support/fixtures";
import type { CaughtEmail } from "./support/mail-catcher";

const currentPlan = (page: Page) => content(page).getByTestId("current-plan");

test("signs in by emailed link and gets a Free account", async ({ page, email }) => {
  await signIn(page, email, "/plan");
  await openAccountMenu(page);
  await expect(page.getByRole("banner")).toContainText(email);
  await expect(currentPlan(page)).toHaveText("Free");
  await snap(page, "sign-in");
});

test("creates a key and calls /v1/tokens with it", async ({ page, email, baseURL }) => {
  await signIn(page, email, "/keys");
  const key = await createKey(page, "e2e script");
  await expect(page.locator("tr", { hasText: "e2e script" })).toContainText(key.slice(0, 13));
  const res = await callApi(baseURL!, "/v1/tokens?limit=3", key);
  expect(res.status).toBe(200);
  expect((res.body.data as Token[]).length).toBe(3);
  await snap(page, "api-key-created");
});

test("filters the token explorer and shows the rows the API returns", async ({ page, email, baseURL }) => {
  await signIn(page, email, "/keys");
  const key = await createKey(page, "explorer check");
  await page.goto("/tokens");
  await page.getByLabel("Sort by").selectOption("liquidity");
  await page.getByLabel("Minimum liquidity in USD").fill("5000");
  await page.getByLabel("Maximum risk score, 0 to 100").fill("60");
  await page.getByLabel("wash trading").check();
  await expect(page).toHaveURL(/min_liquidity_usd=5000/);
  await expect(page).toHaveURL(/max_risk_score=60/);
  await expect(page).toHaveURL(/exclude_flags=wash_trading/);
  await expect(page.getByText("Updating…")).toHaveCount(0);

  const query = new URL(page.url()).search;
  const api = await callApi(baseURL!, `/v1/tokens${query}`, key);
  const expected = (api.body.data as Token[]).map((t) => t.address);
  expect(expected.length).toBeGreaterThan(0);
  await expect
    .poll(() => tokenRows(page).evaluateAll((rows) => rows.map((r) => r.getAttribute("data-address"))))
    .toEqual(expected);
  await expect(page.getByText(`${api.body.total} tokens`)).toBeVisible();

  // The URL is the state: a reload shows the same filters.
  await page.reload();
  await expect(page.getByLabel("Minimum liquidity in USD")).toHaveValue("5000");
  await snap(page, "token-explorer");
});

test("opens a token and one of its holders", async ({ page, email }) => {
  await signIn(page, email, "/tokens");
  await page.getByLabel("Sort by").selectOption("volume");
  await expect(page).toHaveURL(/sort=volume/);
  // Read the first row only once the re-sorted list has replaced the old one.
  await expect(page.getByText("Updating…")).toHaveCount(0);
  // The list ticks live and may re-sort between two reads, so take the link's
  // target and text in one read and click that token's link, wherever it is then.
  const [href, symbol] = await tokenRows(page)
    .first()
    .locator("a")
    .first()
    .evaluate((a) => [a.getAttribute("href") ?? "", (a as HTMLElement).innerText]);
  expect(href).toMatch(/^\/tokens\/0x[0-9a-f]{40}$/);
  await tokenRows(page).locator(`a[href="${href}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(symbol.split(" ")[0]);
  await expect(page.getByRole("img", { name: / candles from / })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Risk score/ })).toBeVisible();
  await snap(page, "token-page");

  await page.getByRole("region", { name: "Top holders" }).locator("tbody a").first().click();
  await expect(page).toHaveURL(/\/wallets\/0x[0-9a-f]{40}$/);
  await expect(page.getByText("Estimated PnL")).toBeVisible();
  await expect(page.getByText("Reputation breakdown")).toBeVisible();
  await page.getByLabel("Event type").selectOption("swap");
  await expect(page).toHaveURL(/type=swap/);
  const types = page.getByRole("region", { name: "Wallet events" }).locator("tbody tr td:nth-child(2)");
  await expect.poll(async () => (await types.allInnerTexts()).every((t) => t.startsWith("swap"))).toBe(true);
  await snap(page, "wallet-page");
});

test("builds an alert, sees it listed and pauses it", async ({ page, email, baseURL }) => {
  await signIn(page, email, "/keys");
  const key = await createKey(page, "alerts");
  await page.goto("/alerts");
  await expect(content(page).getByTestId("alert-limit")).toContainText("allows 3 active alerts");
  await page.getByLabel("Alert name").fill("liquid and clean");
  await page.getByLabel("Minimum liquidity in USD").fill("20000");
  await page.getByLabel("sybil cluster").check();

  // The preview counts with the same filter as the API.
  const api = await callApi(baseURL!, "/v1/tokens?min_liquidity_usd=20000&exclude_flags=sybil_cluster&limit=1", key);
  await expect(page.getByTestId("match-count")).toContainText(`${api.body.total} token`);

  await page.getByRole("button", { name: "Create alert" }).click();
  const alert = page.locator("li[data-alert-id]", { hasText: "liquid and clean" });
  await expect(alert).toContainText("active");
  await expect(alert).toContainText("Last triggered never");
  await alert.getByRole("button", { name: "Pause" }).click();
  await expect(alert.getByRole("button", { name: "Resume" })).toBeVisible();
  await expect(alert).toContainText("paused");

  const listed = await callApi(baseURL!, "/v1/alerts?status=paused", key);
  expect((listed.body.data as { name: string }[]).map((a) => a.name)).toContain("liquid and clean");
  await snap(page, "alerts");
});

test("creates an alert without making a key first, then edits its name and conditions", async ({ page, email }) => {
  await signIn(page, email, "/alerts");
  await expect(content(page).getByText("goes under a new key named “Alerts”")).toBeVisible();
  await page.getByLabel("Alert name").fill("first alert");
  await page.getByLabel("Maximum risk score, 0 to 100").fill("40");
  await page.getByRole("button", { name: "Create alert" }).click();
  const alert = page.locator("li[data-alert-id]", { hasText: "first alert" });
  await expect(alert).toContainText("Key Alerts");
  await expect(alert).toContainText("Maximum risk score, 0 to 100: 40");

  await alert.getByRole("button", { name: "Edit" }).click();
  await alert.getByLabel("Alert name").fill("renamed alert");
  await alert.getByLabel("Maximum risk score, 0 to 100").fill("30");
  await alert.getByLabel("Minimum liquidity in USD").fill("1000");
  await alert.getByRole("button", { name: "Save changes" }).click();
  const edited = page.locator("li[data-alert-id]", { hasText: "renamed alert" });
  await expect(edited).toContainText("Maximum risk score, 0 to 100: 30");
  await expect(edited).toContainText("Minimum liquidity in USD: 1,000");
  await expect(edited.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  await expect(page.locator("li[data-alert-id]")).toHaveCount(1);
  await snap(page, "alert-edited");
});

test("builds a wallet alert from a preview of what it would have sent over the last day", async ({
  page,
  email,
  baseURL,
}) => {
  await signIn(page, email, "/keys");
  const key = await createKey(page, "alert kinds");
  const [latest] = (await callApi(baseURL!, "/v1/events?type=swap&limit=1", key)).body.data as {
    wallet_address: string;
  }[];
  await page.goto("/alerts");
  await expect(page.getByLabel("Watch").locator("option", { hasText: "Smart-money buys" })).toBeDisabled();
  await page.getByLabel("Watch").selectOption("wallet");
  await expect(page.getByText("Fill in the conditions")).toBeVisible();
  await page.getByLabel("Wallet address").fill(latest.wallet_address.toUpperCase().replace("0X", "0x"));
  await page.getByLabel("Receives").check();
  // Its latest swap is within the last day of chain time: at least one notification, listed.
  await expect(page.getByTestId("preview-count")).toContainText(/would have sent [1-9][\d,]* notifications?/);
  await page.getByLabel("Alert name").fill("whale watch");
  await page.getByRole("button", { name: "Create alert" }).click();
  const alert = page.locator("li[data-alert-id]", { hasText: "whale watch" });
  await expect(alert).toContainText(`Wallet ${latest.wallet_address.slice(0, 6)}`);
  await expect(alert).toContainText("buys, sells, receives (any token)");
  const listed = await callApi(baseURL!, "/v1/alerts", key);
  expect(listed.body.data).toEqual([expect.objectContaining({ name: "whale watch", kind: "wallet" })]);
  await snap(page, "alert-wallet");
});

/** The keys CLI against the e2e database. */
function keysCli(...args: string[]): string {
  return execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/keys.ts", ...args], {
    env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL },
    encoding: "utf8",
  });
}

test("without billing the plan is changed by the operator (the keys CLI), and the limits follow", async ({
  page,
  email,
  baseURL,
}) => {
  await signIn(page, email, "/keys");
  const key = await createKey(page, "plan check");
  const before = await callApi(baseURL!, "/v1/tokens?limit=1", key);
  expect(["10", "100"]).toContain(before.headers.get("x-ratelimit-limit"));

  await page.goto("/plan");
  await expect(currentPlan(page)).toHaveText("Free");
  // Off the embedded defaults (this server sends email): the operator's command is not the customer's to see.
  await expect(content(page).getByTestId("billing-not-configured")).toContainText("plans are changed by its operator");
  await expect(content(page).getByTestId("set-plan-command")).toHaveCount(0);
  await expect(content(page).getByTestId("price-pro")).toHaveText("$49 / month");
  await expect(page.getByRole("button", { name: /^(Switch|Subscribe) to/ })).toHaveCount(0);
  await expect(content(page).getByText("Today 1 of 100")).toBeVisible();

  const accountId = (JSON.parse(keysCli("list", "--json")) as { email: string; accountId: string }[]).find(
    (k) => k.email === email,
  )!.accountId;
  keysCli("set-plan", accountId, "pro");
  await page.reload();
  await expect(currentPlan(page)).toHaveText("Pro");
  await expect(content(page).getByText("Today 1 of 10,000")).toBeVisible();

  const after = await callApi(baseURL!, "/v1/tokens?limit=1", key);
  expect(["60", "10000"]).toContain(after.headers.get("x-ratelimit-limit"));
  await page.goto("/alerts");
  await expect(content(page).getByTestId("alert-limit")).toContainText("Pro plan allows 100 active alerts");
  await page.goto("/plan");
  await snap(page, "plan-and-usage");
});

test("revokes a key and the API refuses it", async ({ page, email, baseURL }) => {
  await signIn(page, email, "/keys");
  const key = await createKey(page, "to revoke");
  expect((await callApi(baseURL!, "/v1/tokens?limit=1", key)).status).toBe(200);

  const row = page.locator("tr", { hasText: "to revoke" });
  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Revoke to revoke" }).click();
  await expect(row).toContainText("revoked");

  const refused = await callApi(baseURL!, "/v1/tokens?limit=1", key);
  expect(refused.status).toBe(401);
  expect((refused.body.error as { code: string }).code).toBe("UNAUTHORIZED");
  await snap(page, "api-key-revoked");
});

test("rotates a key: warned first, the old secret refused at once, the old key listed apart as revoked", async ({
  page,
  email,
  baseURL,
}) => {
  await signIn(page, email, "/keys");
  const old = await createKey(page, "rotating");
  await page.getByRole("button", { name: "I have saved it" }).click();
  const live = page.getByRole("region", { name: "API keys", exact: true });
  await live.getByRole("button", { name: "Rotate" }).click();
  await expect(live.getByRole("alert")).toContainText("stops working at once");
  await live.getByRole("button", { name: "Rotate rotating" }).click();
  await expect(page.getByTestId("new-key-secret")).toBeVisible();
  const fresh = await page.getByTestId("new-key-secret").textContent();
  expect(fresh).toMatch(/^ocd_live_/);
  expect(fresh).not.toBe(old);

  expect((await callApi(baseURL!, "/v1/tokens?limit=1", old)).status).toBe(401);
  expect((await callApi(baseURL!, "/v1/tokens?limit=1", fresh!)).status).toBe(200);
  await expect(live.locator("tbody tr")).toHaveCount(1);
  await expect(live).toContainText(fresh!.slice(0, 13));
  await page.getByText("Revoked keys (1)").click();
  const revoked = page.getByRole("region", { name: "Revoked API keys" });
  await expect(revoked).toContainText(old.slice(0, 13));
  await expect(revoked).toContainText("revoked");
  await snap(page, "api-key-rotated");
});

test("signs in with a magic link sent through Resend", async ({ page, email }) => {
  await page.goto("/signin");
  await page.getByLabel("Email").first().fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page).toHaveURL(/\/signin\/check-email/);
  await snap(page, "magic-link-sent");

  const inbox = async () => {
    const sent = (await (await fetch(`${process.env.E2E_MAIL_URL}/emails`)).json()) as CaughtEmail[];
    return sent.find((m) => [m.to].flat().includes(email));
  };
  await expect.poll(inbox).toBeTruthy();
  const link = (await inbox())!.text.match(/https?:\/\/\S+/)![0];
  await page.goto(link);
  await openAccountMenu(page);
  await expect(page.getByRole("banner")).toContainText(email);
  await page.goto("/plan");
  await expect(currentPlan(page)).toHaveText("Free");
});
