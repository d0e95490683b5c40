// Issue 41 finding 1, the viewer's side: a finger's moves reach the phone at most once per animation frame, the
// latest position of each pointer; a down, up or cancel is never held back nor overtaken by a move.
import { describe, expect, it } from 'vitest'
import { createMoveCoalescer } from '../../../src/features/devices/stream/move-coalescer.ts'

const fakeFrames = () => {
  const queued = new Map<number, () => void>()
  let next = 1
  return {
    schedule: (run: () => void) => {
      queued.set(next, run)
      return next++
    },
    cancel: (handle: number) => void queued.delete(handle),
    frame: () => {
      const runs = [...queued.values()]
      queued.clear()
      for (const run of runs) run()
    },
    pending: () => queued.size,
  }
}

describe('pointer moves coalesced to the animation frame', () => {
  it('sends one move per pointer per frame, the latest', () => {
    const frames = fakeFrames()
    const moves = createMoveCoalescer(frames.schedule, frames.cancel)
    const sent: string[] = []
    for (let i = 0; i < 10; i++) moves.move(1, () => sent.push(`1:${i}`))
    moves.move(2, () => sent.push('2:0'))
    expect(sent).toEqual([])
    expect(frames.pending()).toBe(1)
    frames.frame()
    expect(sent).toEqual(['1:9', '2:0'])
    frames.frame()
    expect(sent).toHaveLength(2)
  })

  it('an up sends the waiting move first, and nothing is left for the frame', () => {
    const frames = fakeFrames()
    const moves = createMoveCoalescer(frames.schedule, frames.cancel)
    const sent: string[] = []
    sent.push('down')
    moves.move(1, () => sent.push('move a'))
    moves.move(1, () => sent.push('move b'))
    moves.flush(1)
    sent.push('up')
    frames.frame()
    expect(sent).toEqual(['down', 'move b', 'up'])
  })

  it('a closed viewer sends nothing more', () => {
    const frames = fakeFrames()
    const moves = createMoveCoalescer(frames.schedule, frames.cancel)
    const sent: string[] = []
    moves.move(1, () => sent.push('move'))
    moves.dispose()
    frames.frame()
    expect(sent).toEqual([])
    expect(frames.pending()).toBe(0)
  })
})
