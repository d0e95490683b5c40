// Persists the projection off the hot path, so a restarted worker (Android may kill it at any time) paints the last
// state before the network answers. The events themselves are not written: nothing reads them back, and a write per
// push was a third of the worker's time in a flood. Changes are gathered for `intervalMs` into one transaction;
// what a killed worker had not written yet the tabs still hold, and hand back when they reattach (recovery.ts). A
// session change is written before it is published (session.ts, exit-action.ts), so it is never among the unwritten.
import * as Effect from 'effect/Effect'
import type { Snapshot } from '../protocol/commands.ts'
import { KEPT_ON_EXIT, StorageKey, type StorageKey as Key } from '../protocol/storage-keys.ts'
import type { StorageShape } from '../storage/storage.ts'

export interface SnapshotWriter {
  /** the projection changed to `state`; it is written within the interval. */
  readonly changed: (state: Snapshot) => void
  /** the exit action, right after publishing its SessionEnded: the next write clears the account's keys with it. */
  readonly clearAccount: () => void
  /** writes what is pending now and resolves once everything so far is written. */
  readonly flushed: () => Promise<void>
}

/** The spec's cardCouponPush key (§3), written with the projection while someone is logged in (an exit removes it). */
const derivedKeys = (state: Snapshot): ReadonlyArray<readonly [Key, unknown]> =>
  state.session.loggedIn ? [[StorageKey.cardCouponPush, state.counters]] : []

export const makeSnapshotWriter = (storage: StorageShape, o: { readonly generation: string; readonly intervalMs: number }): SnapshotWriter => {
  let latest: Snapshot | null = null
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

  const pump = () => {
    if (writing !== null) return
    if (latest === null) {
      const done = waiters
      waiters = []
      done.forEach((w) => w())
      return
    }
    writing = write().finally(() => {
      writing = null
      pump()
    })
  }

  const schedule = () => {
    if (timer !== null) return
    timer = setTimeout(() => {
      timer = null
      pump()
    }, o.intervalMs)
  }

  const now = () => {
    if (timer !== null) {
      clearTimeout(timer)
      timer = null
    }
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
