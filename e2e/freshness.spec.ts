import type { Page } from "@playwright/test";
import postgres from "postgres";
import { content, expect, snap, test } from "./support/fixtures";

/**
 * The dashboard tells the truth about its data's age. The fixture has no worker, so the test
 * plays the worker's heartbeat and head probe in sync_state (the columns GET /v1/status reads),
 * and nothing else: the indexed block and the data stay as they are.
 */
async function setState(s: { lagBlocks: number; lagSeconds: number; heartbeatAgo: number; headAgo?: number }) {
  const sql = postgres(process.env.E2E_DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    await sql`
      update sync_state set head_block = indexed_block + ${s.lagBlocks},
        head_block_time = indexed_block_time + make_interval(secs => ${s.lagSeconds}),
        head_checked_at = now() - make_interval(secs => ${s.headAgo ?? s.heartbeatAgo}),
        heartbeat_at = now() - make_interval(secs => ${s.heartbeatAgo}), consecutive_failures = 0`;
  } finally {
    await sql.end();
  }
}

const banner = "stale-data-banner";

/**
 * Opens `path` until `check` holds: pages read the status through the cache every visitor
 * shares (lib/queries/shared-cache.ts), so a change shows once that entry expires. The budgets
 * are generous: on a busy machine one page load alone can take seconds.
 */
async function openWhen(page: Page, path: string, check: () => Promise<void>) {
  await expect(async () => {
    await page.goto(path);
    await check();
  }).toPass({ timeout: 60_000 });
}
/** Shown by the page as loaded (and its live feed connected), not after a later status refresh. */
const now = { timeout: 3_000 };

test("says Live only over current data, and shows why when the data is stale, signed out too", async ({ page }) => {
  // Tests run side by side on one database: this one owns sync_state's liveness columns.
  test.setTimeout(300_000);

  await setState({ lagBlocks: 1, lagSeconds: 2, heartbeatAgo: 0 });
  await openWhen(page, "/events", async () => {
    await expect(page.getByText("Live: new events appear as blocks are indexed")).toBeVisible(now);
    await expect(page.getByTestId(banner)).toHaveCount(0, now);
  });

  // The indexing loop is stuck while the chain moves on (the worker's head probe still reports).
  await setState({ lagBlocks: 84, lagSeconds: 168, heartbeatAgo: 0 });
  await openWhen(page, "/events", () =>
    expect(page.getByText("Not live: 84 blocks, 168 s behind the chain. Updates resume with indexing")).toBeVisible(
      now,
    ),
  );
  await expect(page.getByText(/^Live/)).toHaveCount(0);
  await expect(page.getByTestId(banner)).toContainText(
    "Data may be out of date. The data is 84 blocks (3 min) behind the chain's head.",
  );
  await snap(page, "events-stale");
  await page.goto("/");
  await expect(page.getByTestId(banner)).toBeVisible();
  await expect(content(page).getByText("84 blocks (168 s)")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent events (not live)" })).toBeVisible();
  await snap(page, "home-stale");

  // The worker is gone: no heartbeat, no head; the lag is unknown, not 0.
  await setState({ lagBlocks: 0, lagSeconds: 0, heartbeatAgo: 600 });
  await openWhen(page, "/", () =>
    expect(page.getByTestId(banner)).toContainText("The indexer is not running (last seen 10 min ago).", now),
  );
  await expect(content(page).getByText("not running", { exact: true })).toBeVisible();
  await expect(page.getByText("0 blocks")).toHaveCount(0);
  await page.goto("/events");
  await expect(
    content(page).getByText("Not live: the indexer is not running. Updates resume with indexing"),
  ).toBeVisible();

  // Back to current: the banner goes on the next status refresh, without a reload.
  await setState({ lagBlocks: 0, lagSeconds: 0, heartbeatAgo: 0 });
  await expect(page.getByTestId(banner)).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByText("Live: new events appear as blocks are indexed")).toBeVisible();
});
