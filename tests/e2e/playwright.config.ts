// End-to-end: the built app served by the reference server (started once in global setup), real Chromium, phone viewport.
import { defineConfig } from '@playwright/test'
import { chromiumArgs } from '../chromium.ts'

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.e2e\.ts/,
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // a committed test.only fails the run in CI (scripts/test.ts passes --forbid-only in every run, CI or not)
  forbidOnly: !!process.env.CI,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: '../../test-results/e2e',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    trace: 'off',
    screenshot: 'only-on-failure',
  },
})
