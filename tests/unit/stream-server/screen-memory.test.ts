// Issue 41 finding 1: a screen thread whose queue never empties (4 phones at 高清, each asking its next frame as soon
// as the last one came back) must still free each frame's pixel copy (render.ts: canvas.data(), 3.7 MB at 720p). The
// copies are freed by finalizers that run only when the thread's event loop turns, so the thread yields between frames.
import { describe, expect, it } from 'vitest'
import { createScreenPool } from '../../../server/devices/sim/screen-pool.ts'
import { initialPhone } from '../../../server/devices/sim/phone.ts'
import type { EncoderSettings } from '../../../server/devices/sim/encoder.ts'

const hd: EncoderSettings = { width: 720, height: 1280, fps: 30, bitrate: 2_500_000 }
const MiB = 1024 * 1024

describe('screen thread memory', () => {
  it('stays flat while 4 phones keep one thread saturated', async () => {
    const pool = createScreenPool(1)
    const screens = Array.from({ length: 4 }, () => pool.open())
    // warm up: encoders, fonts and the canvas exist before the baseline
    await Promise.all(screens.map((s) => s.frame({ state: initialPhone, now: 0, settings: hd, ptsUs: 0n, forceKeyframe: true })))
    const base = process.memoryUsage().rss
    let peak = base
    let frames = 0
    const end = Date.now() + 3_000
    await Promise.all(screens.map(async (screen, k) => {
      for (let i = 1; Date.now() < end; i++) {
        await screen.frame({ state: { ...initialPhone, counter: i * 4 + k }, now: i * 33, settings: hd, ptsUs: BigInt(i * 33_000), forceKeyframe: false })
        frames += 1
        peak = Math.max(peak, process.memoryUsage().rss)
      }
    }))
    for (const s of screens) s.close()
    // each frame copied 3.7 MB: without the yield, the copies of every frame stay (about 3.7 MB x frames)
    expect(frames).toBeGreaterThan(40)
    expect((peak - base) / MiB).toBeLessThan(150)
  }, 30_000)
})
