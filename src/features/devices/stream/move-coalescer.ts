// A finger's moves reach the phone at most once per animation frame (issue 41 finding 1): a browser fires pointermove
// up to 120+ times a second, past the picture's 20–30 frames, and the server draws for each. The latest move of each
// pointer waits for the next animation frame; a down, up or cancel sends the pointer's waiting move first, so the
// phone sees the same gesture in the same order, without the moves in between.
export interface MoveCoalescer {
  /** `send` is the pointer's latest move: it replaces a move of the same pointer still waiting. */
  move(pointerId: number, send: () => void): void
  /** sends the pointer's waiting move now (call before its down, up or cancel). */
  flush(pointerId: number): void
  /** drops every waiting move (the viewer closed). */
  dispose(): void
}

export const createMoveCoalescer = (
  schedule: (run: () => void) => number = (run) => requestAnimationFrame(run),
  cancel: (handle: number) => void = (handle) => cancelAnimationFrame(handle),
): MoveCoalescer => {
  const waiting = new Map<number, () => void>()
  let handle: number | null = null
  const sendAll = () => {
    handle = null
    const sends = [...waiting.values()]
    waiting.clear()
    for (const send of sends) send()
  }
  return {
    move(pointerId, send) {
      waiting.set(pointerId, send)
      handle ??= schedule(sendAll)
    },
    flush(pointerId) {
      const send = waiting.get(pointerId)
      if (!send) return
      waiting.delete(pointerId)
      send()
    },
    dispose() {
      waiting.clear()
      if (handle !== null) cancel(handle)
      handle = null
    },
  }
}
