// Reads the reference phone's input marker (worker/protocol/phone-screen.ts) from a decoded frame's luma: the tests
// and the tap-to-pixels bench see which input a frame shows without trusting anything but the pixels.
import { MARKER_CELLS, markerCellSize } from '../../../../worker/protocol/phone-screen.ts'

const even = (n: number) => n + (n % 2)

export const readMarker = async (frame: VideoFrame): Promise<number | null> => {
  const width = frame.codedWidth
  const height = frame.codedHeight
  const cell = markerCellSize(frame.displayWidth, frame.displayHeight)
  const rect = { x: 0, y: 0, width: Math.min(width, even(cell * MARKER_CELLS)), height: Math.min(height, even(cell)) }
  try {
    const size = frame.allocationSize({ rect })
    const buffer = new Uint8Array(size)
    const layout = await frame.copyTo(buffer, { rect })
    const luma = layout[0]!
    let value = 0
    for (let i = 0; i < MARKER_CELLS; i++) {
      const x = Math.floor(i * cell + cell / 2)
      const y = Math.floor(cell / 2)
      const bright = buffer[luma.offset + y * luma.stride + x]! > 128
      value = (value << 1) | (bright ? 1 : 0)
    }
    return value
  } catch {
    return null
  }
}
