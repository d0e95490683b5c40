// Figures of the simulated phone's screen per preset (npx tsx server/devices/sim/measure.ts): render and encode time
// per frame (p50 / p95), bytes per second of the stream while idle (the clock's 1 fps) and while animating (the music
// app's equaliser at the preset's fps), and the CPU one stream costs (share of one core). Simulated time: it runs as
// fast as the machine allows, so the CPU figure is per second of stream, not per second of wall clock.
import { PRESET_SETTINGS, STREAM_PRESETS, type StreamPreset } from '../../../worker/protocol/stream.ts'
import { presetFrameSize } from '../../../worker/protocol/phone-screen.ts'
import { createPhoneEncoder } from './encoder.ts'
import { initialPhone, type PhoneState } from './phone.ts'
import { cjkFont, createRenderer } from './render.ts'

const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!
}

const run = async (preset: StreamPreset, state: PhoneState, fps: number, seconds: number) => {
  const size = presetFrameSize(preset, state.orientation)
  const { bitrate } = PRESET_SETTINGS[preset]
  const encoder = createPhoneEncoder({ ...size, fps: PRESET_SETTINGS[preset].fps, bitrate })
  const renderer = createRenderer()
  const render: number[] = []
  const encode: number[] = []
  let bytes = 0
  const start = Date.UTC(2026, 0, 1, 4, 0, 0)
  const cpu = process.cpuUsage()
  const frames = Math.round(fps * seconds)
  for (let i = 0; i < frames; i++) {
    const now = start + (i * 1000) / fps
    const t0 = performance.now()
    const rgba = renderer.render(state, now, size.width, size.height)
    const t1 = performance.now()
    const packets = encoder.encode(rgba, BigInt(Math.round((i * 1e6) / fps)), i === 0)
    const t2 = performance.now()
    render.push(t1 - t0)
    encode.push(t2 - t1)
    for (const p of packets) bytes += p.data.byteLength + 12 + 5
  }
  const used = process.cpuUsage(cpu)
  encoder.close()
  return {
    render: `${pct(render, 0.5).toFixed(1)} / ${pct(render, 0.95).toFixed(1)} ms`,
    encode: `${pct(encode, 0.5).toFixed(1)} / ${pct(encode, 0.95).toFixed(1)} ms`,
    kbps: ((bytes * 8) / seconds / 1000).toFixed(0),
    cpu: `${(((used.user + used.system) / 1000 / (seconds * 1000)) * 100).toFixed(1)} %`,
  }
}

for (const preset of STREAM_PRESETS) {
  const { fps } = PRESET_SETTINGS[preset]
  const idle = await run(preset, { ...initialPhone }, 1, 20)
  const playing = await run(preset, { ...initialPhone, screen: 'music', music: { playing: true, positionMs: 0, since: Date.UTC(2026, 0, 1, 4, 0, 0) } }, fps, 5)
  console.log(`${preset} ${JSON.stringify(presetFrameSize(preset, 'portrait'))} ${fps} fps`)
  console.log(`  idle (1 fps):       render ${idle.render}, encode ${idle.encode}, ${idle.kbps} kbit/s, CPU ${idle.cpu}`)
  console.log(`  animating (${fps} fps): render ${playing.render}, encode ${playing.encode}, ${playing.kbps} kbit/s, CPU ${playing.cpu}`)
}
console.log(`CJK font: ${cjkFont ?? 'none (Chinese drawn as missing glyphs)'}`)
