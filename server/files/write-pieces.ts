// Writes a stream of pieces to a file, one piece at a time (nothing whole in memory); a failed write leaves no file.
import { open, rm } from 'node:fs/promises'

/** `flags`: 'w' replaces a file, 'wx' refuses one that exists. Resolves with the bytes written. */
export const writePieces = async (path: string, pieces: AsyncIterable<Uint8Array>, flags: 'w' | 'wx'): Promise<number> => {
  const file = await open(path, flags)
  let size = 0
  try {
    try {
      for await (const piece of pieces) {
        await file.write(piece)
        size += piece.length
      }
    } finally {
      await file.close()
    }
  } catch (error) {
    await rm(path, { force: true })
    throw error
  }
  return size
}
