import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import type { CaughtEmail } from "./mail-catcher";

const ARTIFACTS = "e2e/artifacts";

/** The sign-in links emailed to `email` so far, as the local Resend stand-in caught them. */
async function linksTo(email: string): Promise<string[]> {
  const caught = (await (await fetch(`${process.env.E2E_MAIL_URL}/emails`)).json()) as CaughtEmail[];
  return caught.filter((m) => [m.to].flat().includes(email)).map((m) => m.text.match(/https?:\/\/\S+/)![0]);
}

/**
 * Signs in through an emailed link and lands on `returnTo`. (The dev sign-in exists only on the
 * embedded defaults, which the e2e server is not: it has a database of its own and Resend.)
 */
export async function signIn(page: Page, email: string, returnTo = "/") {
  await page.goto(returnTo);
  await expect(page).toHaveURL(/\/signin/);
  const before = (await linksTo(email)).length;
  await page.getByLabel("Email").first().fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page).toHaveURL(/\/signin\/check-email/);
  await expect.poll(async () => (await linksTo(email)).length).toBeGreaterThan(before);
  await page.goto((await linksTo(email)).at(-1)!);
  await page.waitForURL((url) => url.pathname === returnTo.split("?")[0]);
}

/** Creates a key on the keys page and returns its secret, read from the one-time reveal. */
export async function createKey(page: Page, name: string): Promise<string> {
  await page.goto("/keys");
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = await page.getByTestId("new-key-secret").textContent();
  expect(secret).toMatch(/^ocd_live_[0-9A-Za-z]{32}$/);
  return secret!;
}

/** Calls the public API as a script would: plain fetch with the bearer key. */
export async function callApi(baseURL: string, path: string, key: string) {
  const res = await fetch(`${baseURL}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** The page as it is now, in the light and the dark scheme, under e2e/artifacts. */
export async function snap(page: Page, name: string) {
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${ARTIFACTS}/${name}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
}

/** Every test signs in as a user of its own, so plans, keys and alerts never collide. */
export const test = base.extend<{ email: string }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  email: async ({}, use, testInfo) => {
    await use(`e2e-${testInfo.workerIndex}-${randomBytes(4).toString("hex")}@example.com`);
  },
});

export { expect };
