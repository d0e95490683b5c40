// The session-ending rows of the error catalogue (product-spec §8, decisions.md "Several tabs, one session"), seen
// from outside: the built app behind a proxy that answers the device-list call with each error in turn, two real
// tabs of one browser on the home page. Every row: both tabs show the row's toast once, both end on login, each moves
// there once; after logging in again the next row works. Also: the tab whose call failed reloads during the exit.
import { test, expect } from './fixtures.ts'
import { login, newWorld, type FixtureWorld } from './helpers.ts'
import { hashesOf, installRecorder, toastsOf } from './page-recorder.ts'
import { startRewritingProxy, type Rewrite, type RewritingProxy } from './rewriting-proxy.ts'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { Texts } from '../../worker/texts.ts'
import type { Page } from '@playwright/test'

const DEVICE_LIST = catalogue.getDeviceList.path
const LOGIN_ROUTE = '#/pages/login/login'
/** product-spec §8: 6013's toast comes 500 ms after the reply. */
const ELSEWHERE_DELAY_MS = 500

interface Row {
  readonly name: string
  readonly rewrite: Rewrite
  readonly text: string
  readonly delayed?: boolean
}

const ROWS: ReadonlyArray<Row> = [
  { name: 'HTTP 401', rewrite: { httpStatus: 401 }, text: Texts.unauthorized },
  { name: 'body status 6013', rewrite: { bodyStatus: 6013 }, text: Texts.loggedInElsewhere, delayed: true },
  { name: 'body status 6014', rewrite: { bodyStatus: 6014 }, text: Texts.loginExpired },
  { name: 'body status 2', rewrite: { bodyStatus: 2 }, text: Texts.otherClientLogin },
  { name: 'body status 4', rewrite: { bodyStatus: 4 }, text: Texts.otherClientLogin },
  { name: 'body status 3004', rewrite: { bodyStatus: 3004 }, text: Texts.userCancelled },
]
const SESSION_TEXTS: ReadonlyArray<string> = [...new Set(ROWS.map((r) => r.text))]
/** A row's findings are all reported (and the next rows still run) when one of them fails. */
const soft = expect.configure({ soft: true })

let world: FixtureWorld
let proxy: RewritingProxy
test.beforeAll(async () => {
  world = await newWorld()
})
test.beforeEach(async ({ context }) => {
  proxy = await startRewritingProxy(process.env.E2E_BASE_URL!)
  await installRecorder(context)
})
test.afterEach(async () => {
  await proxy.close()
})

/** The session-ending toasts a tab showed since `since` (page clock = test clock). */
const sessionToasts = async (page: Page, since = 0): Promise<Array<string>> =>
  (await toastsOf(page)).filter((t) => t.at >= since && SESSION_TEXTS.includes(t.text)).map((t) => t.text)

/** How many times the tab arrived on the login route since `since`. */
const loginArrivals = async (page: Page, since = 0): Promise<number> =>
  (await hashesOf(page)).filter((h) => h.at >= since && h.hash.startsWith(LOGIN_ROUTE)).length

/** Both tabs logged in as the demo account, on home with the device list. */
async function bothOnHome(a: Page, b: Page): Promise<void> {
  await login(a, world.accounts.demo, proxy.appUrl)
  await expect(a.getByTestId('device-item').first()).toBeVisible()
  await b.goto(proxy.appUrl('/'))
  await expect(b.getByTestId('device-item').first()).toBeVisible()
}

test('each session-ending error toasts in both tabs, sends both to login once, and the next login works', async ({ context }) => {
  test.setTimeout(ROWS.length * 60_000) // six logins and exits in a row
  const a = await context.newPage()
  const b = await context.newPage()
  for (const row of ROWS) {
    await test.step(row.name, async () => {
      await bothOnHome(a, b)
      // no device-list call of the login still in flight: the next one is the reloaded tab's
      await expect.poll(() => proxy.exchanges(DEVICE_LIST).every((e) => e.answeredAt > 0)).toBe(true)
      const before = proxy.exchanges(DEVICE_LIST).length
      proxy.rewrite(DEVICE_LIST, row.rewrite)
      const since = Date.now()
      // a reload is a launch of that tab: its home asks for the device list, and the proxy answers with the error
      await a.reload()
      await expect.poll(() => proxy.exchanges(DEVICE_LIST).slice(before).some((e) => e.rewritten && e.answeredAt > 0),
        { message: `${row.name}: the reloaded tab asked for the device list` }).toBe(true)
      for (const page of [a, b]) await expect(page).toHaveURL(/#\/pages\/login\/login/)
      for (const page of [a, b]) {
        await soft.poll(() => sessionToasts(page, since), { message: `${row.name}: toast in ${page === a ? 'the reloaded' : 'the other'} tab` })
          .toEqual([row.text])
      }
      const failed = proxy.exchanges(DEVICE_LIST).slice(before).filter((e) => e.rewritten && e.answeredAt > 0)
      expect(failed.length).toBeGreaterThan(0)
      if (row.delayed) {
        const shown = [...await toastsOf(a), ...await toastsOf(b)].filter((t) => t.at >= since && t.text === row.text)
        soft(Math.min(...shown.map((t) => t.at)), `${row.name}: toast ${ELSEWHERE_DELAY_MS} ms after the reply`)
          .toBeGreaterThanOrEqual(failed[0]!.answeredAt + ELSEWHERE_DELAY_MS - 10)
      }
      // the exit runs once: each tab moved to login once (however many calls failed), and no second toast follows
      await a.waitForTimeout(1_000)
      for (const page of [a, b]) {
        soft(await loginArrivals(page, since), `${row.name}: arrivals on login`).toBe(1)
        soft(await sessionToasts(page, since), `${row.name}: toasts once`).toEqual([row.text])
        await expect(page.getByTestId('login-submit')).toBeVisible()
      }
      proxy.clear()
    })
  }
})

test('the tab whose call failed reloads during the exit and is still told why, once', async ({ context }) => {
  const a = await context.newPage()
  const b = await context.newPage()
  await bothOnHome(a, b)
  const since = Date.now()
  proxy.rewrite(DEVICE_LIST, { bodyStatus: 6013 })
  await a.reload()
  // the error has reached the core; its toast is due 500 ms later: the calling tab goes away now
  await expect.poll(() => proxy.exchanges(DEVICE_LIST).some((e) => e.rewritten && e.answeredAt > 0)).toBe(true)
  proxy.clear()
  await a.reload()
  for (const page of [a, b]) await expect(page).toHaveURL(/#\/pages\/login\/login/)
  await expect.poll(() => sessionToasts(a), { message: 'toast in the reloaded tab' }).toEqual([Texts.loggedInElsewhere])
  await expect.poll(() => sessionToasts(b, since), { message: 'toast in the other tab' }).toEqual([Texts.loggedInElsewhere])
  await a.waitForTimeout(1_000)
  expect(await sessionToasts(a)).toEqual([Texts.loggedInElsewhere])
  expect(await sessionToasts(b, since)).toEqual([Texts.loggedInElsewhere])
})
