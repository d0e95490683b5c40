// `CoreClient.reached(seq)`: resolves once this tab's copy of the shared state has applied the state event numbered
// `seq` (a command's answer carries the log head it left, worker/protocol/commands.ts), so a screen that acts on what
// its command changed waits for exactly that, not for a guessed store condition or a timeout. Pure, so it is tested
// against the real receiver without a worker (tests/unit/tab/reached.test.ts).
import type { Snapshot } from '../../worker/protocol/commands.ts'

export interface Reached {
  readonly reached: (seq: number) => Promise<void>
  /** every state the receiver produced; `replaced` when a snapshot replaced it. */
  readonly onState: (state: Snapshot, replaced: boolean) => void
  /**
   * The worker died (or the client closed): a waiter's events were either in the new worker's snapshot or died with
   * the old worker (whose numbering the new one does not continue); waiting longer could only hang.
   */
  readonly release: () => void
}

export const createReached = (current: () => Snapshot): Reached => {
  const waiters = new Set<{ readonly seq: number; readonly resolve: () => void }>()
  const settle = (done: (seq: number) => boolean) => {
    for (const w of waiters) {
      if (!done(w.seq)) continue
      waiters.delete(w)
      w.resolve()
    }
  }
  return {
    reached: (seq) => current().seq >= seq ? Promise.resolve() : new Promise((resolve) => void waiters.add({ seq, resolve })),
    // a snapshot is the whole state at its seq: whatever it does not cover is another generation's numbering
    onState: (state, replaced) => settle((seq) => replaced || state.seq >= seq),
    release: () => settle(() => true),
  }
}
