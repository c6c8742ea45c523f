import { defineConfig } from '@playwright/test'
import base from './playwright.config'

/**
 * Reference screenshots (`npm run shots`): the trade page, markets, deposit
 * and withdraw in both languages and themes at 1440 and 390 px, written to
 * e2e/reference/ and kept in the repository. They are not compared by a
 * machine (live prices move): a person compares a change's images with the
 * ones it replaces (git diff shows both) before committing them.
 */
export default defineConfig({
  ...base,
  testMatch: '**/*.shots.ts',
  outputDir: 'test-results/shots',
  workers: 1,
  timeout: 300_000,
})
