import { expect, openAccountMenu, signIn, test } from "./support/fixtures";

test("signs out everywhere: the account's other browsers are signed out too", async ({
  page,
  browser,
  email,
  baseURL,
}) => {
  const elsewhere = await (await browser.newContext({ baseURL })).newPage();
  await signIn(page, email, "/keys");
  await signIn(elsewhere, email, "/keys");

  await openAccountMenu(page);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await elsewhere.reload();
  await expect(elsewhere).toHaveURL(/\/signin/);
  await elsewhere.context().close();
});

test("signs out of this browser only", async ({ page, browser, email, baseURL }) => {
  const elsewhere = await (await browser.newContext({ baseURL })).newPage();
  await signIn(page, email, "/keys");
  await signIn(elsewhere, email, "/keys");

  await openAccountMenu(page);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/signin/);
  await elsewhere.reload();
  await expect(elsewhere).toHaveURL(/\/keys/);
  await elsewhere.context().close();
});
