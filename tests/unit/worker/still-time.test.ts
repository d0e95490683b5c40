// A still's draw time (worker/protocol/stream.ts withStillTime / stillTime): a JPEG comment segment after the
// start-of-image marker that decoders skip, read back exactly, and nothing read from a still that does not carry one.
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { describe, expect, it } from 'vitest'
import { stillTime, withStillTime } from '../../../worker/protocol/stream.ts'

const jpeg = async (): Promise<Uint8Array> => {
  const canvas = createCanvas(24, 40)
  const g = canvas.getContext('2d')
  g.fillStyle = '#597ef7'
  g.fillRect(0, 0, 24, 40)
  return new Uint8Array(await canvas.encode('jpeg', 70))
}

describe('a still\'s draw time', () => {
  it('is read back exactly and the still stays a JPEG of the same picture', async () => {
    const plain = await jpeg()
    const at = 1_780_000_123_456
    const stamped = withStillTime(plain, at)
    expect(stillTime(stamped)).toBe(at)
    expect([stamped[0], stamped[1], stamped[2], stamped[3]]).toEqual([0xff, 0xd8, 0xff, 0xfe])
    const image = await loadImage(Buffer.from(stamped))
    expect([image.width, image.height]).toEqual([24, 40])
    // everything after the comment is the original still
    expect(Buffer.from(stamped.subarray(stamped.byteLength - (plain.byteLength - 2))).equals(Buffer.from(plain.subarray(2)))).toBe(true)
  })

  it('is null for a still without one, a truncated one, or bytes that are not a JPEG', async () => {
    const plain = await jpeg()
    expect(stillTime(plain)).toBeNull()
    expect(stillTime(withStillTime(plain, 5).subarray(0, 8))).toBeNull()
    expect(stillTime(Uint8Array.of(0xff, 0xd8))).toBeNull()
    expect(withStillTime(Uint8Array.of(1, 2, 3), 5)).toEqual(Uint8Array.of(1, 2, 3))
    // another comment is not a draw time
    const other = withStillTime(plain, 7)
    other[6] = 'x'.charCodeAt(0)
    expect(stillTime(other)).toBeNull()
  })
})
