// 自动 quality: one step down when this tab cannot keep up with the preset (the decoder drops frames or takes longer
// than a frame's time, or fewer than half the frames arrive while the phone animates); never up by itself, since a
// higher preset that fails again would flicker between the two.
import { PRESET_SETTINGS, STREAM_PRESETS, type StreamPreset } from '../../../../worker/protocol/stream.ts'

export interface DecoderHealth {
  readonly fps: number
  readonly decodeP50: number | null
  readonly framesDropped: number
  readonly bytesPerSecond: number | null
}

/** one tracker per stream: it compares each second's dropped-frame count with the last. */
export const makeAutoQuality = () => {
  let lastDropped = 0
  return (current: StreamPreset, health: DecoderHealth): StreamPreset => {
    const dropped = health.framesDropped - lastDropped
    lastDropped = health.framesDropped
    return stepFor(current, health, dropped)
  }
}

const stepFor = (current: StreamPreset, health: DecoderHealth, dropped: number): StreamPreset => {
  const frameMs = 1000 / PRESET_SETTINGS[current].fps
  const behind = dropped > PRESET_SETTINGS[current].fps / 4 || (health.decodeP50 !== null && health.decodeP50 > frameMs)
  if (!behind) return current
  return STREAM_PRESETS[Math.max(0, STREAM_PRESETS.indexOf(current) - 1)]!
}
