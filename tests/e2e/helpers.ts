// Shared steps for end-to-end flows: open the app, log in, run the operator CLI, save phone screenshots.
import { execFile } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { promisify } from 'node:util'
import { expect, type Page } from '@playwright/test'

export const DEMO = { phone: '13800138000', password: 'Demo@2026' }
export const BIND_USER = { phone: '13900139000', password: 'Demo@2026' }
export const OTHER = { phone: '13700137000', password: 'Demo@2026' }

export const appUrl = (hash = '/'): string => `${process.env.E2E_APP_URL}#${hash}`

export async function login(page: Page, user = DEMO): Promise<void> {
  await page.goto(appUrl('/pages/login/login'))
  await page.getByTestId('login-phone').fill(user.phone)
  await page.getByTestId('login-password').fill(user.password)
  await page.getByTestId('login-submit').click()
}

const run = promisify(execFile)
/** Runs `npm run ops -- <args>` against the e2e server, as an operator would. */
export async function ops(...args: string[]): Promise<string> {
  const { stdout } = await run('npx', ['tsx', 'server/ops.ts', ...args], {
    env: { ...process.env, OPS_URL: process.env.E2E_BASE_URL, DATA_DIR: process.env.E2E_DATA_DIR },
  })
  return stdout
}

export async function connectionsOf(phone: string): Promise<number> {
  const report = JSON.parse(await ops('connections', '--json')) as { users: Array<{ phone: string; live: number }> }
  return report.users.filter((u) => u.phone === phone).reduce((n, u) => n + u.live, 0)
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screens', { recursive: true })
  await page.screenshot({ path: `test-results/screens/${name}.png` })
}

export async function expectDeviceCount(page: Page, n: number): Promise<void> {
  await expect(page.getByTestId('device-item')).toHaveCount(n)
}
