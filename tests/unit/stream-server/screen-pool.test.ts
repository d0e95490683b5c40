// The screen threads: a phone's frames are drawn and encoded off the event loop, each stream starts with its config
// and a keyframe, a failed frame is an error for that frame only, and a new encoder setting starts a new stream.
import { describe, expect, it } from 'vitest'
import { createScreenPool } from '../../../server/devices/sim/screen-pool.ts'
import { initialPhone } from '../../../server/devices/sim/phone.ts'
import type { EncoderSettings } from '../../../server/devices/sim/encoder.ts'

const small: EncoderSettings = { width: 360, height: 640, fps: 20, bitrate: 600_000 }
const frameOf = (settings: EncoderSettings, i: number, forceKeyframe = false) =>
  ({ state: { ...initialPhone, counter: i }, now: Date.UTC(2026, 0, 1) + i * 1000, settings, ptsUs: BigInt(i * 50_000), forceKeyframe })

describe('screen pool', () => {
  it('encodes on a thread: config and keyframe first, then deltas; a new size starts a new stream', async () => {
    const pool = createScreenPool(1)
    const screen = pool.open()
    expect(pool.liveScreens()).toBe(1)
    const first = await screen.frame(frameOf(small, 0))
    expect(first.map((p) => [p.config, p.keyframe])).toEqual([[true, false], [false, true]])
    const second = await screen.frame(frameOf(small, 1))
    expect(second.every((p) => !p.config && !p.keyframe)).toBe(true)
    const forced = await screen.frame(frameOf(small, 2, true))
    expect(forced.some((p) => p.keyframe)).toBe(true)
    const rotated = await screen.frame(frameOf({ ...small, width: 640, height: 360 }, 3))
    expect(rotated[0]!.config).toBe(true)
    expect(rotated.some((p) => p.keyframe)).toBe(true)
    screen.close()
    expect(pool.liveScreens()).toBe(0)
  }, 30_000)

  it('a frame that fails rejects alone; the next frame starts a new stream on the same thread', async () => {
    const pool = createScreenPool(1)
    const screen = pool.open()
    await expect(screen.frame(frameOf({ ...small, width: 0 }, 0))).rejects.toThrow()
    const next = await screen.frame(frameOf(small, 1))
    expect(next[0]!.config).toBe(true)
    screen.close()
  }, 30_000)
})
