// The phone's sound through a real core, stream socket and decoder worker: a viewer with audio on whose phone plays
// its 音乐 app gets PCM (decoded from the Opus channel by WebCodecs' AudioDecoder in the worker) with real samples;
// and the page's player (an AudioWorklet in a 48 kHz AudioContext, started by a click) plays what it is given.
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { appIconCenter, initialPhone, playButton } from '../../server/devices/sim/phone.ts'
import type { DecoderOut } from '../../src/features/devices/stream/decoder-messages.ts'
import { createPcmPlayer, type PcmPlayer } from '../../src/features/devices/stream/pcm-player.ts'
import type { PcmPlayerStats } from '../../src/features/devices/stream/pcm-player.worklet.ts'
import { makeCoreTest, waitFor } from './core-fixture.ts'
import { connectPhone, decodingViewer } from './phone-fixture.ts'

let env: ReturnType<typeof makeCoreTest> | null = null
const workers: Worker[] = []
const players: PcmPlayer[] = []
afterEach(() => {
  env?.closeAll()
  env = null
  workers.splice(0).forEach((w) => w.terminate())
  players.splice(0).forEach((p) => p.close())
  sessionStorage.removeItem('viewer-sound')
})

describe('the phone\'s sound', () => {
  it('the decoder worker turns the audio channel into PCM with real samples while the 音乐 app plays', async () => {
    env = makeCoreTest()
    const tab = await env.open()
    const card = await connectPhone(tab, '云手机-02')
    const viewer = await decodingViewer(tab, card, workers, { audio: true })
    const { out, markers } = viewer
    await waitFor(() => markers().length > 0, 8000)
    const size = viewer.size()!

    /** a tap at a logical point of the portrait phone; resolves once a frame shows the inputs counted. */
    const tap = async (x: number, y: number) => {
      const before = markers().at(-1)!
      viewer.touch((x * size.width) / 720, (y * size.height) / 1280)
      await waitFor(() => markers().at(-1) !== before, 3000)
    }
    const icon = appIconCenter(initialPhone, 'music')!
    await tap(icon.x, icon.y)
    const play = playButton('portrait')
    await tap(play.x, play.y)

    const pcm = () => out.filter((m): m is Extract<DecoderOut, { t: 'pcm' }> => m.t === 'pcm')
    const errors = () => out.filter((m) => m.t === 'audioError')
    await waitFor(() => pcm().length >= 25 || errors().length > 0, 8000)
    expect(errors()).toEqual([])
    const first = pcm()[0]!
    expect(first.sampleRate).toBe(48_000)
    expect(first.planes).toHaveLength(2)
    expect(first.planes[0]!.length).toBeGreaterThan(0)
    const peak = Math.max(...pcm().flatMap((m) => m.planes.map((p) => p.reduce((a, v) => Math.max(a, Math.abs(v)), 0))))
    expect(peak).toBeGreaterThan(0.05)
    // about 20 ms each, in order
    expect(pcm()[5]!.timestamp).toBeGreaterThan(pcm()[4]!.timestamp)

    // paused: the PCM stops
    await tap(play.x, play.y)
    await new Promise((r) => setTimeout(r, 300))
    const stoppedAt = pcm().length
    await new Promise((r) => setTimeout(r, 300))
    expect(pcm().length).toBe(stoppedAt)
  })

  it('the page\'s player (AudioWorklet) plays the PCM it is given once a click turned it on', async () => {
    const player = createPcmPlayer()
    players.push(player)
    const stats: PcmPlayerStats[] = []
    player.onStats((s) => stats.push(s))
    const button = document.createElement('button')
    button.textContent = '声音'
    button.onclick = () => player.setOn(true)
    document.body.appendChild(button)
    await userEvent.click(button)
    expect(sessionStorage.getItem('viewer-sound')).toBe('on')
    // 20 ms of a 440 Hz tone every 20 ms (the worklet loads meanwhile: what comes before it is dropped)
    let n = 0
    const feeder = setInterval(() => {
      const plane = new Float32Array(960)
      for (let i = 0; i < plane.length; i++, n++) plane[i] = 0.2 * Math.sin((2 * Math.PI * 440 * n) / 48_000)
      player.push([plane, plane.slice()])
    }, 20)
    try {
      await waitFor(() => (stats.at(-1)?.played ?? 0) > 48_000 * 0.3, 8000)
    } finally {
      clearInterval(feeder)
      button.remove()
    }
    // the jitter buffer keeps the lag small: never more than 150 ms buffered
    expect(stats.at(-1)!.buffered).toBeLessThanOrEqual(48_000 * 0.15)
  })
})
