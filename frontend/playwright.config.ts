import { defineConfig } from '@playwright/test'

/**
 * Browser end-to-end tests. Run them with `npm run e2e` (e2e/run.mjs builds
 * the app and the server, starts `tenger serve` on a free port and sets
 * E2E_BASE_URL). Playwright never downloads a browser here: it drives the
 * system's Chromium (Debian package) through executablePath.
 */
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: 'test-results/playwright',
  // Two workers fit the 2-core machines next to the server; every test makes
  // its own account, so they do not share state.
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // One retry: a journey that fails twice is a failure; one that passes on
  // the retry is reported as flaky by name at the end of e2e/run.mjs's
  // output (and counted there), so it is seen and fixed rather than hidden.
  retries: process.env.E2E_RETRIES ? Number(process.env.E2E_RETRIES) : 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The JSON report (path from run.mjs) feeds the short summary printed last,
  // where a CI log that keeps only its tail still shows it.
  reporter: process.env.E2E_JSON_REPORT
    ? [['list'], ['json', { outputFile: process.env.E2E_JSON_REPORT }]]
    : [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'Asia/Ulaanbaatar',
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
})
