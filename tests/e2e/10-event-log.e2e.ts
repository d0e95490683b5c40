// The diagnostic event log (issue 13 item 9): settings exports the core's recent events with their base snapshot as a
// JSON file, redacted; replaying it through the one projection gives the state the worker had when it was exported.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { test, expect } from './fixtures.ts'
import { appUrl, connectionsOf, login, newWorld, ops, screenshot, type FixtureWorld } from './helpers.ts'
import { replayExport } from '../support/replay.ts'
import type { EventLogExport } from '../../worker/protocol/commands.ts'

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

test('settings exports a redacted event log that replays into the projection to the exported state', async ({ context }) => {
  const page = await context.newPage()
  await login(page, world.accounts.demo)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await expect.poll(() => connectionsOf(world.accounts.demo.phone), { timeout: 15_000 }).toBe(1)
  await ops('push', world.accounts.demo.phone, 'sendCouponMsg')
  await ops('push', world.accounts.demo.phone, 'systemAnnouncementMsg')
  await expect(page.getByTestId('counter-coupon')).toHaveAttribute('data-count', '1')
  await page.goto(appUrl('/package/setUp/setUp'))
  await expect(page.getByTestId('settings-export-log')).toBeVisible()
  await screenshot(page, 'settings')
  const download = page.waitForEvent('download')
  await page.getByTestId('settings-export-log').click()
  const file = await (await download).path()
  const text = readFileSync(file, 'utf8')
  const log = JSON.parse(text) as EventLogExport
  expect(log.kind).toBe('cloud-phone-event-log')
  expect(text).not.toContain(world.accounts.demo.phone)
  expect(log.events.map((e) => e.event._tag)).toEqual(expect.arrayContaining(['SessionChanged', 'DeviceListLoaded', 'CounterIncremented']))
  expect(replayExport(log)).toEqual(log.head)
  expect(log.head.counters.coupon).toBe(1)
  mkdirSync('test-results', { recursive: true })
  writeFileSync('test-results/event-log.json', text)
})
