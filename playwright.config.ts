import { defineConfig } from "@playwright/test";

/**
 * Browser tests against the production build on a database of their own (e2e/global-setup.ts).
 * Debian's Chromium only: Playwright never downloads a browser here.
 */
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  globalTeardown: "./e2e/global-teardown.ts",
  outputDir: "test-results",
  // Generous: screenshots of long pages in two schemes are slow on a busy 2-core machine.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"]],
  use: {
    // Set by the global setup, which runs before the workers read this file.
    baseURL: process.env.E2E_BASE_URL,
    headless: true,
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
    trace: "retain-on-failure",
  },
  projects: [
    { name: "desktop" },
    // The main flows again on a phone (390x844, touch): every page must fit its width (snap()).
    // Not freshness.spec.ts: it owns sync_state's liveness columns, and projects run side by side.
    {
      name: "phone",
      testMatch: [
        "public.spec.ts",
        "dashboard.spec.ts",
        "chart.spec.ts",
        "budget.spec.ts",
        "token-page.spec.ts",
        "creator.spec.ts",
        "security.spec.ts",
        "live.spec.ts",
      ],
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    },
  ],
});
