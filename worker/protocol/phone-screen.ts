// What the simulated phone paints that a viewer may read back from decoded frames: the input marker (the latency bench
// reads which input a frame already shows) and the frame size of each preset and orientation.
import { PRESET_SETTINGS, type StreamPreset } from './stream.ts'

/**
 * The input marker: MARKER_CELLS squares in a row at the frame's top-left corner (y = 0, x = i * cell), each of side
 * markerCellSize(width, height); cell i is white when bit (MARKER_CELLS - 1 - i) of (inputSeq mod 256) is 1, black
 * when 0. inputSeq counts the inputs the phone applied: touch down and move (while down), key down, text, scroll,
 * set-clipboard, rotate, back-or-screen-on down; not touch up, key up, get-clipboard, reset-video, nor inputs it
 * refused (out-of-range coordinates, oversized text).
 */
export const MARKER_CELLS = 8

/** 3 % of the frame's short side, rounded, at least 1 px. */
export const markerCellSize = (width: number, height: number): number => Math.max(1, Math.round(Math.min(width, height) * 0.03))

/** The marker's value (0–255) in a decoded frame, from a luma (0–255) reader: each cell's centre against mid-grey. */
export const readMarker = (luma: (x: number, y: number) => number, width: number, height: number): number => {
  const cell = markerCellSize(width, height)
  let value = 0
  for (let i = 0; i < MARKER_CELLS; i++) {
    const x = Math.floor(i * cell + cell / 2)
    const y = Math.floor(cell / 2)
    value = (value << 1) | (luma(x, y) >= 128 ? 1 : 0)
  }
  return value
}

/** The marker's value in RGBA pixels (e.g. a VideoFrame copied to RGBA, or a canvas' ImageData). */
export const readMarkerRgba = (rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): number =>
  readMarker((x, y) => {
    const i = (y * width + x) * 4
    return 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!
  }, width, height)

export type PhoneOrientation = 'portrait' | 'landscape'

/** The encoded frame's size: the preset's short side by 16:9, swapped in landscape. */
export const presetFrameSize = (preset: StreamPreset, orientation: PhoneOrientation): { width: number; height: number } => {
  const short = PRESET_SETTINGS[preset].shortSide
  const long = Math.round((short * 16) / 9)
  return orientation === 'portrait' ? { width: short, height: long } : { width: long, height: short }
}
