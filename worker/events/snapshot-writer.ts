// Persists the projection off the hot path, so a restarted worker (Android may kill it at any time) paints the last
// state before the network answers. The events themselves are not written: nothing reads them back, and a write per
// push was a third of the worker's time in a flood. A change is written once nothing has changed for `quietMs`, or
// `maxDelayMs` after the first unwritten one while changes keep coming: a write blocks the worker for about a
// millisecond, so under a steady stream of pushes it would delay whichever push arrives during it. What a killed
// worker had not written yet the tabs still hold, and hand back when they reattach (recovery.ts); when no tab is
// visible any more (Android kills workers in the background) the owner calls `flushed` at once. A session change is
// written before it is published (session.ts, exit-action.ts), so it is never among the unwritten.
import * as Effect from 'effect/Effect'
import type { Snapshot } from '../protocol/commands.ts'
import { KEPT_ON_EXIT, StorageKey, type StorageKey as Key } from '../protocol/storage-keys.ts'
import type { StorageShape } from '../storage/storage.ts'

export interface SnapshotWriter {
  /** the projection changed to `state`; it is written after a quiet interval, or at the latest after maxDelayMs. */
  readonly changed: (state: Snapshot) => void
  /** the exit action, right after publishing its SessionEnded: the next write clears the account's keys with it. */
  readonly clearAccount: () => void
  /** writes what is pending now and resolves once everything so far is written. */
  readonly flushed: () => Promise<void>
}

/** The spec's cardCouponPush key (§3), written with the projection while someone is logged in (an exit removes it). */
const derivedKeys = (state: Snapshot): ReadonlyArray<readonly [Key, unknown]> =>
  state.session.loggedIn ? [[StorageKey.cardCouponPush, state.counters]] : []

export interface SnapshotWriterOptions {
  readonly generation: string
  readonly quietMs: number
  readonly maxDelayMs: number
}

export const makeSnapshotWriter = (storage: StorageShape, o: SnapshotWriterOptions): SnapshotWriter => {
  let latest: Snapshot | null = null
  // changes are counted, not timed: a clock read per push would cost more than the check once per tick
  let changes = 0
  let changesAtTick = 0
  let waitedMs = 0
  let clear = false
  let writing: Promise<void> | null = null
  let waiters: Array<() => void> = []
  let timer: ReturnType<typeof setTimeout> | null = null

  const write = (): Promise<void> => {
    const state = latest!
    const clearNow = clear
    latest = null
    clear = false
    return Effect.runPromise(storage.commit({
      persisted: { generation: o.generation, state }, clearExcept: clearNow ? KEPT_ON_EXIT : null, keys: derivedKeys(state),
    }))
  }

  // a write that fell due while another was in flight: it goes as soon as that one completes
  let due = false

  const pump = () => {
    if (writing !== null) {
      due = true
      return
    }
    due = false
    if (latest === null) {
      const done = waiters
      waiters = []
      done.forEach((w) => w())
      return
    }
    writing = write().finally(() => {
      writing = null
      if (due || latest === null) pump()
      // changes made during the write wait for their own quiet interval (the timer is running for them)
    })
  }

  const tick = () => {
    timer = null
    waitedMs += o.quietMs
    if (changes === changesAtTick || waitedMs >= o.maxDelayMs) {
      waitedMs = 0
      pump()
      return
    }
    changesAtTick = changes
    timer = setTimeout(tick, o.quietMs)
  }

  const schedule = () => {
    changes += 1
    if (timer !== null) return
    changesAtTick = changes
    timer = setTimeout(tick, o.quietMs)
  }

  const now = () => {
    if (timer !== null) {
      clearTimeout(timer)
      timer = null
    }
    waitedMs = 0
    pump()
  }

  return {
    changed: (state) => {
      latest = state
      schedule()
    },
    clearAccount: () => {
      clear = true
      // the clearing goes with the SessionEnded state that was just published
      now()
    },
    flushed: () => new Promise<void>((resolve) => {
      if (latest === null && writing === null) return resolve()
      waiters.push(resolve)
      now()
    }),
  }
}
