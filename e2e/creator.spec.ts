import { sql } from "drizzle-orm";
import type { z } from "zod";
import { creatorHoldingText, creatorSoldText, launchesSentence } from "@/components/creators/words";
import { shortAddress } from "@/components/format";
import { connect, createDb, type Db } from "@/db/client";
import type { tokenProfile } from "@/lib/api/schemas/tokens";
import type { launchList, walletProfile } from "@/lib/api/schemas/wallets";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { callApi, expect, expectNoHorizontalOverflow, snap, test } from "./support/fixtures";

/**
 * Who made a token and what its creator launched before (issue 48 item 2), on a desktop and a
 * 390 px phone: the token page names the creator, what it holds and whether it sold; the wallet
 * page says what it launched and how each launch ended; every word from the API's figures.
 */

type Page = import("@playwright/test").Page;

let db: Db;
let key: string;

test.beforeAll(async () => {
  db = createDb(connect(process.env.E2E_DATABASE_URL!, { max: 1 }));
  key = (await createKey(db, await ensureAccount(db, null, "api_tier"), "e2e creators")).key;
});

const v1 = async <T>(baseURL: string, path: string) => {
  const res = await callApi(baseURL, path, key);
  expect(res.status, path).toBe(200);
  return res.body as T;
};

const creatorCard = (page: Page) =>
  page.locator("section", { has: page.getByRole("heading", { name: "Creator", exact: true }) });

test("the token page names the creator, what it holds and that it sold, and leads to its launches", async ({
  page,
  baseURL,
  isMobile,
}) => {
  // A token whose creator sold part of its tokens and holds the rest.
  const [{ token }] = await db.execute<{ token: string }>(sql`
    select t.address as token from tokens t
      join wallet_positions p on p.wallet = t.creator and p.token_address = t.address
      join balances b on b.token_address = t.address and b.holder = t.creator
     where p.sell_count > 0 and b.amount > 0 order by t.address limit 1`);
  const profile = await v1<z.infer<typeof tokenProfile>>(baseURL!, `/v1/tokens/${token}`);
  const creator = profile.creator.address!;
  const holding = profile.creator_holding!;
  expect(holding.sold).toBe("sold_some");

  await page.goto(`/tokens/${token}`);
  const card = creatorCard(page);
  await expect(card).toContainText(`Created by ${shortAddress(creator)}`);
  await expect(card).toContainText(`on ${profile.creator.via.name}`);
  await expect(card).toContainText(creatorHoldingText(holding, profile.symbol));
  await expect(card).toContainText(creatorSoldText(holding));
  await expect(card.locator(`a[href="/wallets/${creator}"]`)).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await snap(page, "token-page-creator");
  if (isMobile) await expectNoHorizontalOverflow(page);

  await card.getByRole("link", { name: "What else it launched →" }).click();
  await expect(page).toHaveURL(new RegExp(`/wallets/${creator}#launches$`));
  const wallet = await v1<z.infer<typeof walletProfile>>(baseURL!, `/v1/wallets/${creator}`);
  await expect(page.locator("[data-launches-summary]")).toHaveText(`This wallet ${launchesSentence(wallet.launches)}.`);
  await expect(page.getByRole("region", { name: "Launches" }).locator(`tr[data-token="${token}"]`)).toBeVisible();
});

test("the wallet page says what the wallet launched and how each launch ended, as the API lists them", async ({
  page,
  baseURL,
  isMobile,
}) => {
  // The most prolific creator whose launches ended in more than one way.
  const [{ creator }] = await db.execute<{ creator: string }>(sql`
    select t.creator from tokens t join token_metrics m on m.address = t.address
     where t.creator is not null group by t.creator
    having count(distinct 'liquidity_pulled' = any(m.risk_flags)) > 1
     order by count(*) desc, t.creator limit 1`);
  const wallet = await v1<z.infer<typeof walletProfile>>(baseURL!, `/v1/wallets/${creator}`);
  const launches = await v1<z.infer<typeof launchList>>(baseURL!, `/v1/wallets/${creator}/launches?limit=50`);
  expect(wallet.launches.liquidity_pulled).toBeGreaterThan(0);

  await page.goto(`/wallets/${creator}`);
  const summary = page.locator("[data-launches-summary]");
  await expect(summary).toHaveText(`This wallet ${launchesSentence(wallet.launches)}.`);
  await expect(summary).toContainText(
    `created ${wallet.launches.total} tokens, pulled liquidity on ${wallet.launches.liquidity_pulled}`,
  );
  const rows = page.getByRole("region", { name: "Launches" }).locator("tbody tr");
  await expect(rows).toHaveCount(launches.data.length);
  expect(
    await rows.evaluateAll((trs) => trs.map((r) => [r.getAttribute("data-token"), r.getAttribute("data-outcome")])),
  ).toEqual(launches.data.map((l) => [l.token_address, l.outcome]));
  const pulled = launches.data.find((l) => l.outcome === "liquidity_pulled")!;
  await expect(page.locator(`tr[data-token="${pulled.token_address}"]`)).toContainText(pulled.token_symbol);
  await expect(page.locator(`tr[data-token="${pulled.token_address}"]`)).toContainText("liquidity pulled");
  await page.locator("#launches").scrollIntoViewIfNeeded();
  await snap(page, "wallet-launches");
  if (isMobile) await expectNoHorizontalOverflow(page);
});
