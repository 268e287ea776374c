import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import type { CaughtEmail } from "./mail-catcher";

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
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  const before = (await linksTo(email)).length;
  await page.getByLabel("Email").first().fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page).toHaveURL(/\/signin\/check-email/, { timeout: 30_000 });
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

/** Opens the header's account menu, where the signed-in email and the sign-out buttons are. */
export async function openAccountMenu(page: Page) {
  const menu = page.getByRole("banner").locator("details");
  if (!(await menu.getAttribute("open").then((v) => v !== null)))
    await page.getByRole("banner").locator("summary").click();
  await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
}

/**
 * The page's own content. Server-rendered content is read through #content: just after a load or
 * reload a hidden second copy of streamed content can sit outside #content (seen six times, likely
 * React's streamed boundary awaiting its reveal), and a bare locator matches both (strict mode).
 */
export const content = (page: Page) => page.locator("#content");

/** The rows of the token list as the viewport shows them: the table's from a tablet up, the cards on a phone. */
export const tokenRows = (page: Page) => page.locator("[data-address]:visible");

/** Calls the public API as a script would: plain fetch with the bearer key. */
export async function callApi(baseURL: string, path: string, key: string) {
  const res = await fetch(`${baseURL}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/**
 * The document is no wider than the viewport: only a table's own frame may scroll sideways.
 * (Compared with the viewport's width as set, since a phone widens innerWidth to fit content.)
 */
export async function expectNoHorizontalOverflow(page: Page) {
  const width = page.viewportSize()!.width;
  await expect
    .poll(
      () =>
        page.evaluate((width) => {
          if (document.documentElement.scrollWidth <= width) return [];
          // What sticks out, outside any scrolling frame: the failure names it.
          const inFrame = (e: Element) => {
            for (let p = e.parentElement; p; p = p.parentElement)
              if (["auto", "scroll", "hidden"].includes(getComputedStyle(p).overflowX)) return true;
            return false;
          };
          return [...document.body.querySelectorAll("*")]
            .filter((e) => e.getBoundingClientRect().right > width && !inFrame(e))
            .slice(0, 5)
            .map((e) => {
              const right = Math.round(e.getBoundingClientRect().right);
              return `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") ?? ""}"> right=${right}`;
            });
        }, width),
      { message: `the document is wider than the viewport (${width} px)` },
    )
    .toEqual([]);
}

/**
 * The page as it is now, in the light and the dark scheme, under test-results/screens/<project>/
 * (desktop, phone), once it fits its viewport's width.
 */
export async function snap(page: Page, name: string, { fullPage = true } = {}) {
  await expectNoHorizontalOverflow(page);
  const dir = `test-results/screens/${test.info().project.name}`;
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${dir}/${name}-dark.png`, fullPage });
  await page.emulateMedia({ colorScheme: "light" });
  // A full-page shot of an emulated phone leaves the page's metrics stretched: clicks would miss.
  const viewport = page.viewportSize();
  if (viewport) await page.setViewportSize(viewport);
}

/**
 * Every test signs in as a user of its own, so plans, keys and alerts never collide, and browses
 * from an address of its own (as a proxy in front reports it), so the per-address metering of
 * visitors without an account counts each test apart.
 */
export const test = base.extend<{ email: string }>({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    // A /64 of its own: visitors are metered by their IPv6 /64.
    const [a, b] = [randomBytes(2).toString("hex"), randomBytes(2).toString("hex")];
    await use({ ...extraHTTPHeaders, "x-forwarded-for": `2001:db8:${a}:${b}::1` });
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  email: async ({}, use, testInfo) => {
    await use(`e2e-${testInfo.workerIndex}-${randomBytes(4).toString("hex")}@example.com`);
  },
});

export { expect };
