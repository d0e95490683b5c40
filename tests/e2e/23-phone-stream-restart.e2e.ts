// The phone, for real — faults: the server instance the viewer streams from dies (SIGKILL, as a crash) and comes
// back on the same port and data directory (the page's origin, its session and the card token survive). The viewer
// says it is reconnecting instead of showing a frozen picture as live, and the core's stream socket (reconnect
// schedule 0, 250, 500, 1000 ms repeating) brings the picture back by itself; a tap reaches the new instance's phone.
// This file runs its own server process so that it can kill it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { opsFixture, opsTargetFromEnv, type OpsTarget } from '../../server/ops.ts'
import { startServerProcess, type ServerProcess } from '../support/server-process.ts'
import { test, expect, watchServerOutput } from './fixtures.ts'
import { login, screenshot, type FixtureWorld } from './helpers.ts'

/** From the new instance answering HTTP to the viewer's first live frame (the target). */
const BACK_WITHIN_MS = 2_000

let dataDir: string
let server: ServerProcess
let port: number
let world: FixtureWorld

const start = async (p: number) => {
  const started = await startServerProcess({ DATA_DIR: dataDir, PORT: String(p) }, ['--serve-app'])
  watchServerOutput(started.output)
  return started
}
const target = (): OpsTarget => opsTargetFromEnv({ OPS_URL: server.url, DATA_DIR: dataDir })
const appAt = (hash: string): string => `http://127.0.0.1:${port}/cloud/phone/web/#${hash}`
const card = () => world.cards['云手机-01']!

test.beforeAll(async () => {
  test.setTimeout(240_000)
  dataDir = mkdtempSync(join(tmpdir(), 'cloud-phone-e2e-restart-'))
  server = await start(0)
  port = Number(new URL(server.url).port)
  world = await opsFixture(target())
})

test.afterAll(async () => {
  await server?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

/** Logical portrait screen of the reference phone (worker/protocol/stream.ts PHONE_SCREEN). */
const SCREEN = { width: 720, height: 1280 }
const tapPhone = async (page: Page, at: { x: number; y: number }) => {
  const box = await page.getByTestId('phone-canvas').boundingBox()
  if (box === null) throw new Error('canvas not laid out')
  await page.touchscreen.tap(box.x + (box.width * at.x) / SCREEN.width, box.y + (box.height * at.y) / SCREEN.height)
}
const marker = async (page: Page) => Number(await page.getByTestId('phone-canvas').getAttribute('data-marker'))

/** Resolves with the time the address first answers an HTTP request (polled from before the process starts). */
const firstAnswer = (url: string, stop: { done: boolean }): Promise<number> =>
  new Promise((resolve) => {
    const poll = () => {
      if (stop.done) return
      fetch(url, { signal: AbortSignal.timeout(1_000) })
        .then(() => resolve(Date.now()))
        .catch(() => setTimeout(poll, 10))
    }
    poll()
  })

test('a restarted server instance brings the picture back by itself: the viewer says it is reconnecting, then shows the phone live again', async ({ page }) => {
  test.setTimeout(180_000)
  // the decoder reads the phone's input marker from every frame
  await page.addInitScript(() => { (globalThis as { __PHONE_PROBE__?: boolean }).__PHONE_PROBE__ = true })
  await login(page, world.accounts.demo, appAt)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await page.goto(appAt(`/package/cloudPhoneView/cloudPhoneView?userCardId=${card()}`))
  const viewer = page.getByTestId('viewer')
  await expect(viewer).toHaveAttribute('data-phase', 'live', { timeout: 30_000 })
  await expect(page.getByTestId('phone-canvas')).toHaveAttribute('data-marker', /\d+/)
  let seq = await marker(page)
  await tapPhone(page, { x: 360, y: 900 })
  await expect.poll(() => marker(page)).not.toBe(seq)

  // every phase the viewer goes through with the page's clock (one machine: comparable with this process's)
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="viewer"]')!
    const seen: Array<{ phase: string; at: number }> = []
    ;(globalThis as { __phases?: typeof seen }).__phases = seen
    new MutationObserver(() => seen.push({ phase: el.getAttribute('data-phase') ?? '', at: Date.now() }))
      .observe(el, { attributes: true, attributeFilter: ['data-phase'] })
  })
  const phases = () => page.evaluate(() => (globalThis as { __phases?: Array<{ phase: string; at: number }> }).__phases ?? [])

  // a crash: no graceful close of the sockets
  expect(await server.stop('SIGKILL')).toBeNull()
  await expect(page.getByTestId('viewer-waiting')).toContainText('重新连接中')
  await screenshot(page, 'viewer-server-restarting')
  // still reconnecting (not an error, not a frozen picture presented as live) while the instance is down
  await expect(viewer).toHaveAttribute('data-phase', 'waiting')

  const polling = { done: false }
  const answered = firstAnswer(`http://127.0.0.1:${port}/cloud/phone/web/`, polling)
  try {
    server = await start(port)
  } catch (e) {
    polling.done = true
    throw e
  }
  // the poll runs until its first answer: the start line can come before any poll got through (a slow machine)
  const upAt = await answered
  await expect(viewer).toHaveAttribute('data-phase', 'live', { timeout: 15_000 })
  const liveAt = (await phases()).find((p) => p.phase === 'live')!.at
  const backMs = liveAt - upAt
  console.log(`picture back ${backMs} ms after the restarted instance answered HTTP`)
  expect(backMs).toBeLessThan(BACK_WITHIN_MS)
  expect((await phases()).map((p) => p.phase)).not.toContain('failed')

  // the picture is the new instance's phone: a tap reaches it and changes the pixels
  await expect(page.getByTestId('phone-canvas')).toHaveAttribute('data-marker', /\d+/)
  seq = await marker(page)
  await tapPhone(page, { x: 360, y: 900 })
  await expect.poll(() => marker(page)).not.toBe(seq)
  await screenshot(page, 'viewer-server-restarted')
})
